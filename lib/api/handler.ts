/**
 * The one wrapper around every API route handler: authenticates the API key (spec §5, raw or
 * Bearer; 401 otherwise), awaits Next's params, runs the handler and maps thrown errors to the
 * version's error shape (lib/api/errors.ts). Route files stay thin: parse, one domain call,
 * serialize.
 */
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { type ApiVersion, API_HEADERS, errorResponse, toErrorResponse } from "@/lib/api/errors";

export type HandlerArgs<P> = {
  request: Request;
  url: URL;
  actor: Actor;
  params: P;
};

type NextContext<P> = { params: Promise<P> };

/** Wraps an authenticated API handler for `version`. */
export function apiRoute<P = Record<string, never>>(version: ApiVersion, handler: (args: HandlerArgs<P>) => Promise<Response>) {
  return async (request: Request, context: NextContext<P>): Promise<Response> => {
    try {
      const actor = await authenticateApiKey(db, request.headers.get("authorization"));
      if (!actor) {
        return version === "v2"
          ? errorResponse("v2", 401, "UNAUTHORIZED", "Missing or invalid API key (send it in the Authorization header)")
          : errorResponse("v1", 401, "UNAUTHORIZED", "Unauthorized");
      }
      const params = (context?.params ? await context.params : {}) as P;
      return await handler({ request, url: new URL(request.url), actor, params });
    } catch (err) {
      return toErrorResponse(version, err);
    }
  };
}

/** CORS preflight answer shared by the API routes (export as OPTIONS). */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...API_HEADERS,
      "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key",
      "Access-Control-Max-Age": "86400",
    },
  });
}
