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
 * `path` is the documented path (`{param}` placeholders; `/v1/reports/` keeps its slash); each
 * served method's requests are counted and timed under it for GET /metrics (lib/metrics/registry.ts).
 */

import type { z } from "zod";
import type { CursorPosition } from "@/lib/api/cursor";
import { listEnvelope, listEnvelopeText, pageOf } from "@/lib/api/envelope";
import { errorResponse, json, jsonText } from "@/lib/api/errors";
import { apiRoute, type HandlerArgs, methodNotAllowed, preflight, publicAnswer } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import type { Actor } from "@/lib/domain/actor";
import { timedRoute } from "@/lib/metrics/registry";
import type { OperationDoc, V1Errors, V2Errors } from "@/lib/openapi/operation";
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
  // Not async (nor the `run`s below): a parse error thrown here is caught by apiRoute all the same,
  // and every promise less is time saved on each request (issue 14).
  return apiRoute<Record<string, string>>(version, (args) => {
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
  return methodTable(
    version,
    Object.fromEntries(methods.map((m) => [m, timedRoute(path, m, handlerOf(version, served[m] as ServedMethod))])),
  );
}

/**
 * The handlers of a path from the ones it serves, WITHOUT an OpenAPI declaration — only for paths
 * that are not API operations (GET /v2/openapi.json itself) or are documented elsewhere (the
 * webhook endpoints, lib/openapi/webhooks.ts). Every other method answers as in `apiPath`.
 */
export function methodTable(version: "v1" | "v2", handlers: Partial<Record<RouteMethod, RouteHandler>>): RouteHandlers {
  const other = publicAnswer(version, version === "v1" ? notFoundV1 : methodNotAllowed(ROUTE_METHODS.filter((m) => handlers[m])));
  const table = Object.fromEntries(ROUTE_METHODS.map((m) => [m, handlers[m] ?? other])) as Record<RouteMethod, RouteHandler>;
  return { ...table, OPTIONS: preflight };
}

/**
 * Request header by which the server preload (lib/runtime/next-preload.cjs) hands the catch-alls a
 * request it refused: `malformed-path` (percent-encoding that does not decode) or `method=<NAME>`
 * (a method no route handler can serve). The preload removes it from the requests that carry it.
 */
export const REFUSED_HEADER = "x-checkin-refused";

/** Every method the server serves in some route (the `Allow` of the preload's 405). */
const SERVER_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/**
 * The answer to a request the server preload refused (`REFUSED_HEADER`), in the version's shape:
 * a malformed path is 400 (v2 INVALID_PARAMETER), an unknown method 405 METHOD_NOT_ALLOWED with
 * `Allow` (v1: its 404); null for any other request.
 */
function refusal(version: "v1" | "v2", request: Request): Promise<Response> | null {
  const refused = request.headers.get(REFUSED_HEADER);
  if (!refused) return null;
  if (refused === "malformed-path") {
    return Promise.resolve(errorResponse(version, 400, "INVALID_PARAMETER", "Malformed percent-encoding in the path"));
  }
  if (version === "v1" || !refused.startsWith("method=")) return null;
  const message = `Method ${refused.slice("method=".length)} is not supported (allowed: ${SERVER_METHODS})`;
  return Promise.resolve(errorResponse("v2", 405, "METHOD_NOT_ALLOWED", message, { Allow: SERVER_METHODS }));
}

/**
 * The handlers of a catch-all under /v1 or /v2 (issue #2): a JSON 404 for every method, HEAD
 * included, with the version's error shape, and the refusals the server preload hands over
 * (`REFUSED_HEADER`), without authentication (there is nothing to protect) but rate-limited
 * (`publicAnswer`). Known routes take precedence over the catch-all.
 */
export function unknownPath(version: "v1" | "v2"): RouteHandlers & { HEAD: RouteHandler } {
  const notFound = version === "v1" ? notFoundV1 : async () => errorResponse("v2", 404, "NOT_FOUND", "No such endpoint");
  const answer: RouteHandler = publicAnswer(version, (request: Request) => refusal(version, request) ?? notFound());
  const table = Object.fromEntries(ROUTE_METHODS.map((m) => [m, answer])) as Record<RouteMethod, RouteHandler>;
  return { ...table, HEAD: answer, OPTIONS: preflight };
}

/** Who and what an operation is, for the route builders: tag, id, summary, prose, path id (`OperationDoc`'s own words). */
export type OperationHead = Pick<OperationDoc, "tag" | "id" | "summary" | "description" | "path">;

/** The success response of a read (status 200): prose and schema. */
export type ReadResponse = { description: string; schema: z.ZodType };

/**
 * How a read loads and answers: the declared query (parsed, optional), the load from the actor,
 * the path id (0 without one) and the parsed query (one object, so a domain function cannot be
 * passed by mistake with the id in its `client` slot), and the serializer of the loaded row
 * (given the query too, for `include`). The route answers `json(serialize(row, query))` as it is.
 * Instead of `serialize`, `wire` gives the whole response body as JSON text when the load returns
 * the row already serialized (built in SQL); the route then sends that text as it is.
 */
export type ReadSpec<Q extends z.ZodType | undefined, R> = {
  query?: Q;
  load: (args: { actor: Actor; id: number; query: Q extends z.ZodType ? z.output<Q> : undefined }) => Promise<R>;
} & (
  | { serialize: (row: R, query: Q extends z.ZodType ? z.output<Q> : undefined) => unknown }
  | { wire: (row: R, query: Q extends z.ZodType ? z.output<Q> : undefined) => string }
);

/**
 * A v2 GET of one resource: documents `head`, `response`, `read.query`, 400 INVALID_PARAMETER when
 * it has a query and 404 when it has a path id, and answers `json(read.serialize(row, query))`
 * (the serializer builds the `{data}` envelope), or `jsonText(read.wire(row, query))`.
 * @throws what `read.load` throws (NotFoundError for invisible ids), mapped by apiRoute.
 */
export function readRoute<Q extends z.ZodType | undefined, R>(
  head: OperationHead,
  response: ReadResponse,
  read: ReadSpec<Q, R>,
): ServedMethod {
  return readMethod({ ...(read.query && { 400: ["INVALID_PARAMETER"] }), ...(head.path && { 404: true }) }, head, response, read);
}

/** `readRoute` for v1 (bare JSON): documents 404 when it has a path id, no 400 (v1 reads parse no declared query). */
export function readRouteV1<R>(head: OperationHead, response: ReadResponse, read: ReadSpec<undefined, R>): ServedMethod {
  return readMethod(head.path && [404], head, response, read);
}

function readMethod<Q extends z.ZodType | undefined, R>(
  errors: V1Errors | V2Errors | undefined,
  head: OperationHead,
  response: ReadResponse,
  read: ReadSpec<Q, R>,
): ServedMethod {
  const run = ({ actor, id, query }: RunArgs<Q extends z.ZodType ? z.output<Q> : undefined>) => runRead(read, { actor, id, query });
  return { doc: { ...head, query: read.query, response, errors }, run };
}

/**
 * Answers a read as `readRoute` does, for an already parsed query: `json(read.serialize(row, query))`
 * or `jsonText(read.wire(row, query))`. Also used by the MCP tools (lib/mcp/tools.ts), so that they
 * answer the same bytes as the API.
 * @throws what `read.load` throws.
 */
export function runRead<Q extends z.ZodType | undefined, R>(
  read: ReadSpec<Q, R>,
  { actor, id, query }: { actor: Actor; id: number; query: Q extends z.ZodType ? z.output<Q> : undefined },
): Promise<Response> {
  return read
    .load({ actor, id, query })
    .then((row) => ("wire" in read ? jsonText(read.wire(row, query)) : json(read.serialize(row, query))));
}

/**
 * How a v2 list loads one page: the declared query, the filters and cursor binding from the
 * parsed query and the path id, the load of `limit + 1` rows (one object argument, as in `ReadSpec`), the serializer of one row and the
 * keyset position of a row (given the filters, for positions that depend on the window).
 * Instead of `serialize`, `wire` gives a row's wire JSON when the load returns it already
 * serialized (built in SQL); the envelope is then written around the texts as they are.
 */
export type ListSpec<Q extends z.ZodType, F extends { limit: number }, R> = {
  query: Q;
  filters: (query: z.output<Q>, id: number) => { filters: F; binding: unknown };
  load: (args: { actor: Actor; filters: F; id: number }) => Promise<R[]>;
  position: (row: R, filters: F) => CursorPosition;
} & ({ serialize: (row: R, query: z.output<Q>) => unknown } | { wire: (row: R) => string });

/**
 * A v2 cursor-paginated GET: documents `head`, `response` (a list envelope schema), `list.query`,
 * 400 INVALID_PARAMETER, and 404 when it has a path id; answers the list envelope (spec §4.1) of
 * the page `list.load` returns (`limit + 1` rows; the extra one sets `has_more` and the cursor).
 * @throws InvalidParameterError for a bad query or cursor; what `list.load` throws.
 */
export function listRoute<Q extends z.ZodType, F extends { limit: number }, R>(
  head: OperationHead,
  response: ReadResponse,
  list: ListSpec<Q, F, R>,
): ServedMethod {
  const errors: V2Errors = { 400: ["INVALID_PARAMETER"], ...(head.path && { 404: true }) };
  const run = ({ actor, id, query }: RunArgs<z.output<Q>>) => runList(list, { actor, id, query });
  return { doc: { ...head, query: list.query, response, errors }, run };
}

/**
 * Answers one page of a list as `listRoute` does, for an already parsed query: the list envelope
 * (spec §4.1) of the `limit + 1` rows `list.load` returns. Also used by the MCP tools
 * (lib/mcp/tools.ts), so that they answer the same bytes as the API.
 * @throws InvalidParameterError for a bad cursor; what `list.load` throws.
 */
export function runList<Q extends z.ZodType, F extends { limit: number }, R>(
  list: ListSpec<Q, F, R>,
  { actor, id, query }: { actor: Actor; id: number; query: z.output<Q> },
): Promise<Response> {
  const { filters, binding } = list.filters(query, id);
  const position = (row: R) => list.position(row, filters);
  return list.load({ actor, filters, id }).then((rows) => {
    const page = pageOf(rows, filters.limit);
    if ("wire" in list) return jsonText(listEnvelopeText(page, list.wire, position, binding));
    const serialize = list.serialize;
    return json(listEnvelope(page, (row) => serialize(row, query), position, binding));
  });
}
