/**
 * Rate limits (issue 13), with `rate-limiter-flexible`'s PostgreSQL store: counters live in the
 * `rate_limits` table (migration `*_rate_limits`), so every app instance on one database shares
 * them. The table is UNLOGGED (`*_rate_limits_unlogged`, issue 14): counting a request does not
 * wait for a WAL flush, and the counters restart at 0 after a PostgreSQL crash.
 *
 * Policies (all configurable through lib/env.ts, 0 switches one off):
 *
 * - `api-key`: requests per API key per minute (RATE_LIMIT_API_PER_MINUTE, default 600);
 * - `anonymous`: API requests without a valid key, per client IP per minute (default 300);
 * - `sign-in-pair` / `sign-in-ip`: dashboard sign-in attempts per account and client IP pair
 *   (SIGN_IN_MAX_FAILURES, default 10) and per client IP (5 × that) within
 *   SIGN_IN_FAILURE_WINDOW_MINUTES (default 15), consumed before the password is checked and
 *   refunded when it was right (lib/auth/sign-in-throttle.ts); invalid link tokens (invitation,
 *   password reset, one-time sign-in) count against the IP;
 * - `sign-in-account`: failed sign-ins per account from any address in that window; never refuses,
 *   it only sets the progressive delay of the account's next attempts;
 * - `link-request-account` / `link-request-ip`: e-mailed link requests (forgot password) per
 *   address per hour (LINK_REQUESTS_PER_HOUR, default 5) and per client IP (4 × that).
 *
 * API responses carry the IETF draft headers (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "api-key";q=600;w=60` and `RateLimit: "api-key";r=599;t=42` (r = remaining,
 * t = seconds until the window resets); a 429 adds `Retry-After` (seconds).
 *
 * Other flows (password reset, invitations) reuse it: `consumeRateLimit(policy, subject)` counts
 * one request atomically and says whether it is allowed; `rewardRateLimit` gives points back (an
 * attempt that turned out fine) and `resetRateLimit` clears a subject (e.g. after success).
 * When the store is unreachable an in-memory limiter per process takes over (the request then
 * usually fails with 503 on its own database access anyway).
 *
 * The per-key API quota counts in batches (`{ batched: true }`, lib/api/rate-limit-batch.ts): one
 * upsert per key every 100 ms while the key is busy instead of one per request; exact within one
 * process, and across instances a key can overshoot by what the others admitted in the last second.
 */
import pg from "pg";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { BatchedCounter, type WindowCount } from "@/lib/api/rate-limit-batch";
import { apiPerMinuteSetting, databaseUrl, directDatabaseUrl, limitSettings } from "@/lib/env";
import { processState } from "@/lib/runtime/process-state";

/** A named limit: at most `points` per `windowSeconds` for one subject. `points` 0 = off. */
export type RateLimitPolicy = { name: string; points: number; windowSeconds: number };

/** Outcome of counting or peeking one subject under a policy. */
export type RateLimitResult = {
  policy: RateLimitPolicy;
  allowed: boolean;
  /** Requests (or failures) left in the current window. */
  remaining: number;
  /** Seconds until the window resets (≥ 1 while counting). */
  resetSeconds: number;
  /** Points counted in the window, this request's included (0 when unknown or unlimited). */
  consumed: number;
};

/** The policies in force, read from the environment (lib/env.ts) on each call. */
export function ratePolicies() {
  const env = limitSettings();
  return {
    apiKey: apiKeyRatePolicy(),
    anonymous: { name: "anonymous", points: env.anonymousPerMinute, windowSeconds: 60 },
    signInPair: { name: "sign-in-pair", points: env.signInMaxFailures, windowSeconds: env.signInWindowMinutes * 60 },
    signInIp: { name: "sign-in-ip", points: env.signInMaxFailures * 5, windowSeconds: env.signInWindowMinutes * 60 },
    // A counter, not a limit: its count sets the account's delay (SIGN_IN_MAX_FAILURES is where delays start).
    signInAccount: {
      name: "sign-in-account",
      points: env.signInMaxFailures > 0 ? 1_000_000 : 0,
      windowSeconds: env.signInWindowMinutes * 60,
    },
    linkRequestAccount: { name: "link-request-account", points: env.linkRequestsPerHour, windowSeconds: 3600 },
    linkRequestIp: { name: "link-request-ip", points: env.linkRequestsPerHour * 4, windowSeconds: 3600 },
  } satisfies Record<string, RateLimitPolicy>;
}

/**
 * `ratePolicies().apiKey` alone: the API wrapper asks for it on every request, and reading every
 * limit setting each time cost about 4 µs.
 */
export function apiKeyRatePolicy(): RateLimitPolicy {
  return { name: "api-key", points: apiPerMinuteSetting(), windowSeconds: 60 };
}

type State = {
  pool: pg.Pool | null;
  limiters: Map<string, RateLimiterAbstract>;
  counters: Map<string, BatchedCounter>;
  /** Set by `setRateLimitBatching(false)` (benchmarks only): `batched` counts go to the store one by one. */
  unbatched?: boolean;
};
function state(): State {
  return processState<State>("__checkinRateLimit", () => ({ pool: null, limiters: new Map(), counters: new Map() }));
}

/**
 * A small pool of its own: one atomic upsert per count (the Prisma pool stays for domain work). It
 * connects to `DIRECT_DATABASE_URL` when set: the limiter's upsert is a named (prepared) statement,
 * which PgBouncer in transaction mode cannot keep on one server connection.
 */
function pool(): pg.Pool {
  const s = state();
  if (s.pool) return s.pool;
  const url = directDatabaseUrl() ?? databaseUrl();
  if (!url) throw new Error("DATABASE_URL is not set");
  s.pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 });
  s.pool.on("error", () => {}); // an idle connection was terminated: the pool replaces it
  return s.pool;
}

function limiterFor(policy: RateLimitPolicy): RateLimiterAbstract {
  const id = `${policy.name}:${policy.points}:${policy.windowSeconds}`;
  const s = state();
  let limiter = s.limiters.get(id);
  if (!limiter) {
    const opts = { keyPrefix: policy.name, points: policy.points, duration: policy.windowSeconds };
    limiter = new RateLimiterPostgres({
      ...opts,
      storeClient: pool(),
      tableName: "rate_limits",
      tableCreated: true,
      clearExpiredByTimeout: false, // the hourly cleanup job deletes expired rows
      inMemoryBlockOnConsumed: policy.points * 2, // a flood past the limit stops costing queries
      inMemoryBlockDuration: Math.min(policy.windowSeconds, 60),
      insuranceLimiter: new RateLimiterMemory(opts),
    });
    s.limiters.set(id, limiter);
  }
  return limiter;
}

function counterFor(policy: RateLimitPolicy): BatchedCounter {
  const id = `${policy.name}:${policy.points}:${policy.windowSeconds}`;
  const s = state();
  let counter = s.counters.get(id);
  if (!counter) {
    counter = new BatchedCounter(limiterFor(policy), policy.windowSeconds * 1000);
    s.counters.set(id, counter);
  }
  return counter;
}

function toResult(policy: RateLimitPolicy, res: RateLimiterRes | null, allowed: boolean): RateLimitResult {
  const consumed = res?.consumedPoints ?? 0;
  const ms = res && res.msBeforeNext > 0 ? res.msBeforeNext : policy.windowSeconds * 1000;
  return {
    policy,
    allowed,
    remaining: Math.max(policy.points - consumed, 0),
    resetSeconds: Math.max(1, Math.ceil(ms / 1000)),
    consumed,
  };
}

function unlimited(policy: RateLimitPolicy): RateLimitResult {
  return { policy, allowed: true, remaining: Number.POSITIVE_INFINITY, resetSeconds: policy.windowSeconds, consumed: 0 };
}

function batchedResult(policy: RateLimitPolicy, { consumed, resetAt }: WindowCount): RateLimitResult {
  const resetSeconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  return { policy, allowed: consumed <= policy.points, remaining: Math.max(policy.points - consumed, 0), resetSeconds, consumed };
}

/**
 * `consumeRateLimit(policy, subject, { batched: true })` synchronously when the process's batched
 * counter can decide alone (a busy subject, see lib/api/rate-limit-batch.ts): the request is then
 * counted and its result returned; undefined when the store must be asked (then call
 * `consumeRateLimit` with `batched`, which counts it). An unlimited policy answers at once.
 */
export function consumeBatchedRateLimitNow(policy: RateLimitPolicy, subject: string): RateLimitResult | undefined {
  if (policy.points <= 0) return unlimited(policy);
  if (state().unbatched) return undefined;
  const counted = counterFor(policy).consumeNow(subject);
  return counted && batchedResult(policy, counted);
}

/**
 * Turns the batched counting of this process on (the default) or off, so that `npm run
 * bench:machinery` measures the API quota with and without lib/api/rate-limit-batch.ts in one run.
 * Off, a `batched` count is one upsert in the store per request. Not for the server.
 */
export function setRateLimitBatching(on: boolean): void {
  state().unbatched = !on;
}

/**
 * Counts one request of `subject` (an API key id, an IP, an email…) under `policy`.
 * With `batched`, counted through the process's batched counter (see the module comment).
 * @returns allowed = false once more than `policy.points` were counted in the window.
 */
export async function consumeRateLimit(
  policy: RateLimitPolicy,
  subject: string,
  opts: { batched?: boolean } = {},
): Promise<RateLimitResult> {
  if (policy.points <= 0) return unlimited(policy);
  if (opts.batched && !state().unbatched) return batchedResult(policy, await counterFor(policy).consume(subject));
  try {
    return toResult(policy, await limiterFor(policy).consume(subject, 1), true);
  } catch (rejected) {
    if (rejected instanceof RateLimiterRes) return toResult(policy, rejected, false);
    throw rejected;
  }
}

/**
 * Gives `points` back to `subject` (an attempt counted by `consumeRateLimit` that turned out not to
 * count, e.g. a right password).
 */
export async function rewardRateLimit(policy: RateLimitPolicy, subject: string, points = 1): Promise<void> {
  if (policy.points <= 0) return;
  await limiterFor(policy).reward(subject, points);
}

/** Forgets the count of `subject` (e.g. after a successful sign-in). */
export async function resetRateLimit(policy: RateLimitPolicy, subject: string): Promise<void> {
  if (policy.points <= 0) return;
  await limiterFor(policy).delete(subject);
}

/**
 * The client's IP address: the header set by the server preload from the socket's address
 * (lib/runtime/next-preload.cjs), or with TRUST_PROXY the last `X-Forwarded-For` hop (the one
 * your reverse proxy appended). "unknown" when neither is present (in-process calls).
 */
export function clientIp(request: { headers: Pick<Headers, "get"> }): string {
  if (limitSettings().trustProxy) {
    const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map((h) => h.trim());
    const last = hops.filter(Boolean).pop();
    if (last) return last.slice(0, 64);
  }
  return (request.headers.get(CLIENT_IP_HEADER) ?? "unknown").slice(0, 64);
}

/** Request header carrying the socket's remote address (set by the preload; clients cannot set it). */
export const CLIENT_IP_HEADER = "x-checkin-client-ip";

/** The IETF `RateLimit-Policy` and `RateLimit` headers (plus `Retry-After` when not allowed). */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const { policy } = result;
  if (policy.points <= 0) return {};
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"${policy.name}";q=${policy.points};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${result.remaining};t=${result.resetSeconds}`,
    "Access-Control-Expose-Headers": "RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed",
  };
  if (!result.allowed) headers["Retry-After"] = String(result.resetSeconds);
  return headers;
}

/** Closes the store's pool (scripts and tests before exiting). */
export async function closeRateLimitStore(): Promise<void> {
  const s = state();
  await Promise.all([...s.counters.values()].map((c) => c.flushAll()));
  s.counters.clear();
  const p = s.pool;
  s.pool = null;
  s.limiters.clear();
  await p?.end().catch(() => {});
}
