/**
 * The one wrapper around every API route handler: authenticates the API key (spec §5, raw or
 * Bearer; 401 otherwise), applies the rate limits (lib/api/rate-limit.ts: per key, or per client
 * IP without a valid key; 429 + `RateLimit`/`RateLimit-Policy` headers on every response; answers
 * that need no key go through `publicAnswer`, the CORS preflight is the one exception), awaits
 * Next's params, runs the handler (a read whose database connection was lost is retried once) and
 * maps thrown errors to the version's error shape (lib/api/errors.ts: 503 when the database is
 * unavailable). Route files stay thin: parse, one domain call, serialize.
 */
import { API_HEADERS, type ApiVersion, errorResponse, toErrorResponse } from "@/lib/api/errors";
import { parseIdempotencyKey, requestFingerprint, runIdempotent, type WriteResult } from "@/lib/api/idempotency";
import { readJson } from "@/lib/api/query";
import {
  apiKeyRatePolicy,
  clientIp,
  consumeBatchedRateLimitNow,
  consumeRateLimit,
  type RateLimitResult,
  rateLimitHeaders,
  ratePolicies,
} from "@/lib/api/rate-limit";
import { retryOnceIfUnavailable } from "@/lib/api/unavailable";
import { authenticateApiKey, cachedApiKeyActor } from "@/lib/auth/api-keys";
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { noteRequest } from "@/lib/logger";

export type { WriteResult } from "@/lib/api/idempotency";

export type HandlerArgs<P> = {
  request: Request;
  url: URL;
  actor: Actor;
  params: P;
};

type NextContext<P> = { params: Promise<P> };

/** 429 in the version's error shape, naming the limit and when to retry. */
function tooManyRequests(version: ApiVersion, limit: RateLimitResult): Response {
  const { policy } = limit;
  const who = policy.name === "api-key" ? "per API key" : "per client address without a valid API key";
  return errorResponse(
    version,
    429,
    "RATE_LIMITED",
    `Rate limit exceeded: at most ${policy.points} requests per ${policy.windowSeconds} s ${who}; retry in ${limit.resetSeconds} s`,
  );
}

/** Adds `headers` to `response` (copying it when its headers are immutable). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
    return copy;
  }
}

/**
 * The answer to a request without a valid API key: 401 in the version's shape, or 429 once the
 * client address is over the anonymous limit; with the limit counted (null for an unknown address).
 */
async function unauthenticated(version: ApiVersion, request: Request): Promise<{ response: Response; limit: RateLimitResult | null }> {
  const ip = clientIp(request);
  const limit = ip !== "unknown" ? await consumeRateLimit(ratePolicies().anonymous, ip) : null;
  if (limit && !limit.allowed) return { response: tooManyRequests(version, limit), limit };
  const response =
    version === "v2"
      ? errorResponse("v2", 401, "UNAUTHORIZED", "Missing or invalid API key (send it in the Authorization header)")
      : errorResponse("v1", 401, "UNAUTHORIZED", "Unauthorized");
  return { response, limit };
}

/**
 * Counts a request that is answered without authentication (`publicAnswer`) as `apiRoute` counts
 * any request: against its key's quota when it carries a valid key, else against its client
 * address's; null when neither applies (no valid key, unknown address).
 */
async function countPublicRequest(request: Request): Promise<RateLimitResult | null> {
  const header = request.headers.get("authorization");
  let actor = cachedApiKeyActor(db, header);
  if (actor === undefined) actor = await authenticateApiKey(db, header);
  if (actor) {
    const policy = apiKeyRatePolicy();
    const subject = String(actor.apiKeyId ?? `user-${actor.userId}`);
    return consumeBatchedRateLimitNow(policy, subject) ?? consumeRateLimit(policy, subject, { batched: true });
  }
  const ip = clientIp(request);
  return ip !== "unknown" ? consumeRateLimit(ratePolicies().anonymous, ip) : null;
}

/**
 * Wraps an API answer that needs no key (the 404 of unknown paths, 405, the refusals the server
 * preload hands over, GET /v2/openapi.json) so that it is rate-limited like every API request
 * (issue 40): counted as in `apiRoute`, 429 over the limit, and the `RateLimit` headers on the
 * answer. What is answered never depends on the key. When the key cannot be resolved (the
 * database is unavailable) the answer goes out without the headers, as it needs no database.
 */
export function publicAnswer<C>(version: ApiVersion, answer: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    let limit: RateLimitResult | null = null;
    try {
      limit = await countPublicRequest(request);
    } catch {
      limit = null;
    }
    let response: Response;
    try {
      response = limit && !limit.allowed ? tooManyRequests(version, limit) : await answer(request, context);
    } catch (err) {
      response = toErrorResponse(version, err);
    }
    return limit ? withHeaders(response, rateLimitHeaders(limit)) : response;
  };
}

/**
 * Wraps an authenticated API handler for `version`. A request whose key and quota the process
 * already knows (the in-process key cache, the batched quota counter) is authenticated and
 * counted synchronously: no promise of ours before the handler's own (issue 14).
 */
export function apiRoute<P = Record<string, never>>(version: ApiVersion, handler: (args: HandlerArgs<P>) => Promise<Response>) {
  return async (request: Request, context: NextContext<P>): Promise<Response> => {
    let limit: RateLimitResult | null = null;
    let response: Response;
    try {
      const header = request.headers.get("authorization");
      let actor = cachedApiKeyActor(db, header);
      if (actor === undefined) actor = await retryOnceIfUnavailable(() => authenticateApiKey(db, header));
      if (!actor) ({ response, limit } = await unauthenticated(version, request));
      else {
        noteRequest(request.headers, { actorId: actor.userId, apiKeyId: actor.apiKeyId ?? undefined });
        const policy = apiKeyRatePolicy();
        const subject = String(actor.apiKeyId ?? `user-${actor.userId}`);
        limit = consumeBatchedRateLimitNow(policy, subject) ?? (await consumeRateLimit(policy, subject, { batched: true }));
        if (!limit.allowed) response = tooManyRequests(version, limit);
        else {
          const params = (context?.params ? await context.params : {}) as P;
          const args = { request, url: new URL(request.url), actor, params };
          const safe = request.method === "GET" || request.method === "HEAD";
          response = await (safe ? retryOnceIfUnavailable(() => handler(args)) : handler(args));
        }
      }
    } catch (err) {
      response = toErrorResponse(version, err);
    }
    return limit ? withHeaders(response, rateLimitHeaders(limit)) : response;
  };
}

/** Options of a v2 write route (see `apiWriteRoute`). */
export type WriteRouteOptions<P, I> = {
  /** Route pattern, part of the idempotency fingerprint, e.g. "/v2/reports/{reportId}". */
  route: string;
  /** "json": the request must carry a JSON body; "none": any body is ignored (DELETE). */
  body: "json" | "none";
  /** Validates path params and body into the domain input. No database writes here. */
  parse: (args: HandlerArgs<P> & { body: unknown }) => I | Promise<I>;
  /** Performs the write through `tx` (one transaction) and returns the response to send and store. */
  run: (args: HandlerArgs<P> & { input: I; tx: Tx }) => Promise<WriteResult>;
  /**
   * Optional: the write without an Idempotency-Key, for a domain function that opens its own
   * transaction when it needs one (lib/domain/report-writes.ts `submitReport`: a lone statement
   * commits on its own). Without it, such a write runs `run` in a new transaction.
   */
  runUnkeyed?: (args: HandlerArgs<P> & { input: I }) => Promise<WriteResult>;
};

/**
 * Wraps a v2 write endpoint with `Idempotency-Key` support (lib/api/idempotency.ts). Order:
 * authenticate (401) → validate the key (400) → read and validate the body (400) → claim the key
 * and run `run` in one transaction with the stored response. Without the header: `runUnkeyed` when
 * given (the domain function decides: one statement, an optimistic edit, or its own transaction),
 * else `run` in one transaction. Errors map to the v2 error shape as in `apiRoute`.
 */
export function apiWriteRoute<P = Record<string, never>, I = unknown>(opts: WriteRouteOptions<P, I>) {
  return apiRoute<P>("v2", async (args) => {
    const key = parseIdempotencyKey(args.request.headers.get("idempotency-key"));
    const body = opts.body === "json" ? await readJson(args.request) : null;
    const input = await opts.parse({ ...args, body });
    // Computed only for a keyed write (the only one compared with a stored request).
    const fingerprint = () =>
      requestFingerprint({ method: args.request.method, route: opts.route, params: (args.params ?? {}) as Record<string, unknown>, body });
    const { runUnkeyed } = opts;
    return runIdempotent({
      actor: args.actor,
      key,
      fingerprint,
      run: (tx) => opts.run({ ...args, input, tx }),
      runUnkeyed: runUnkeyed && (() => runUnkeyed({ ...args, input })),
    });
  });
}

/**
 * The answer of a v2 path to a method it does not serve: 405 with the structured v2 error body
 * (spec §7: v2 endpoints return structured errors; Next's own 405 has no body) and `Allow`.
 * Nothing to protect, so no key is needed; wrap it in `publicAnswer` (lib/api/route.ts does).
 */
export function methodNotAllowed(allowed: readonly string[]): () => Promise<Response> {
  const allow = [...allowed, "OPTIONS"].join(", ");
  return async () =>
    errorResponse("v2", 405, "METHOD_NOT_ALLOWED", `Method not allowed on this path (allowed: ${allow})`, { Allow: allow });
}

/**
 * CORS preflight answer shared by the API routes (export as OPTIONS). Not rate-limited and without
 * `RateLimit` headers (README "Limits"): a preflight carries no key, its headers never reach the
 * calling script, and it is answered without the database.
 */
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
