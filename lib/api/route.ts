/**
 * One API path in one call: `apiPath(path, { GET: { doc, handler }, ... })` returns the handlers a
 * route file exports — the methods it serves, the answer of every other method (v1: JSON 404
 * `{"error": "Not found"}`; v2: JSON 405 METHOD_NOT_ALLOWED with `Allow`), and OPTIONS (the CORS
 * preflight) — and registers each served method's OpenAPI operation (lib/openapi/registry.ts),
 * so a route cannot be served undocumented. A route file is then only what it serves:
 *
 *   export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/things", {
 *     GET: { doc: { tag, id, summary, query, response, errors }, handler: apiRoute("v2", async (...) => ...) },
 *   });
 *
 * `path` is the documented path (`{param}` placeholders; `/v1/reports/` keeps its slash).
 */

import type { z } from "zod";
import { errorResponse } from "@/lib/api/errors";
import { apiRoute, type HandlerArgs, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import type { OperationDoc } from "@/lib/openapi/operation";
import { registerOperations } from "@/lib/openapi/registry";

/** The methods a route may serve (HEAD follows GET; OPTIONS is the preflight). */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

// biome-ignore lint/suspicious/noExplicitAny: Next passes each route its own params shape
type RouteHandler = (request: Request, context: { params: Promise<any> }) => Promise<Response>;

/**
 * One served method: its OpenAPI declaration and either a full handler (`apiWriteRoute` for v2
 * writes) or `run`, which `apiPath` wraps in `apiRoute` after parsing what `doc` declares: the path
 * id (`doc.path`, NotFoundError when malformed) first, then the query (`doc.query`, 400).
 */
export type ServedMethod =
  | { doc: OperationDoc; handler: RouteHandler }
  // biome-ignore lint/suspicious/noExplicitAny: `served` types each route's own query output
  | { doc: OperationDoc; run: (args: RunArgs<any>) => Promise<Response> };

/** What a `run` handler receives: the authenticated request, the parsed path id and query. */
export type RunArgs<Q> = HandlerArgs<Record<string, string>> & {
  /** The path id of `doc.path` (0 when the path has none). */
  id: number;
  /** The output of `doc.query` (undefined when none is declared). */
  query: Q;
};

/**
 * A served method whose handler gets the parsed path id and query (see `ServedMethod`), typed by
 * the declared query schema.
 */
export function served<Q extends z.ZodType | undefined = undefined>(
  doc: OperationDoc & { query?: Q },
  run: (args: RunArgs<Q extends z.ZodType ? z.output<Q> : undefined>) => Promise<Response>,
): ServedMethod {
  return { doc, run };
}

function handlerOf(version: "v1" | "v2", served: ServedMethod): RouteHandler {
  if ("handler" in served) return served.handler;
  const { doc, run } = served;
  return apiRoute<Record<string, string>>(version, async (args) => {
    const id = doc.path ? parseId(args.params[doc.path.param], doc.path.what) : 0;
    const query = doc.query ? parseWith(doc.query, queryObject(args.url)) : undefined;
    return run({ ...args, id, query });
  });
}

/** What a route file exports: a handler for every method, plus OPTIONS. */
export type RouteHandlers = Record<RouteMethod, RouteHandler> & { OPTIONS: () => Response };

/** Declares the path `path`; see the module comment. */
export function apiPath(path: string, served: Partial<Record<RouteMethod, ServedMethod>>): RouteHandlers {
  const version = path.startsWith("/v1/") ? "v1" : "v2";
  const methods = ROUTE_METHODS.filter((m) => served[m]);
  registerOperations(version, path, Object.fromEntries(methods.map((m) => [m, (served[m] as ServedMethod).doc])));
  return methodTable(version, Object.fromEntries(methods.map((m) => [m, handlerOf(version, served[m] as ServedMethod)])));
}

/**
 * The handlers of a path from the ones it serves, WITHOUT an OpenAPI declaration — only for paths
 * that are not API operations (GET /v2/openapi.json itself). Every other method answers as in
 * `apiPath`.
 */
export function methodTable(version: "v1" | "v2", handlers: Partial<Record<RouteMethod, RouteHandler>>): RouteHandlers {
  const other = version === "v1" ? notFoundV1 : methodNotAllowed(ROUTE_METHODS.filter((m) => handlers[m]));
  const table = Object.fromEntries(ROUTE_METHODS.map((m) => [m, handlers[m] ?? other])) as Record<RouteMethod, RouteHandler>;
  return { ...table, OPTIONS: preflight };
}

/**
 * The handlers of a catch-all under /v1 or /v2 (issue #2): a JSON 404 for every method, HEAD
 * included, with the version's error shape, before any authentication (there is nothing to
 * protect). Known routes take precedence over the catch-all.
 */
export function unknownPath(version: "v1" | "v2"): RouteHandlers & { HEAD: RouteHandler } {
  const notFound: RouteHandler = version === "v1" ? notFoundV1 : async () => errorResponse("v2", 404, "NOT_FOUND", "No such endpoint");
  const table = Object.fromEntries(ROUTE_METHODS.map((m) => [m, notFound])) as Record<RouteMethod, RouteHandler>;
  return { ...table, HEAD: notFound, OPTIONS: preflight };
}
