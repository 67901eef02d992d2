/**
 * HTTP client of a Geekbot-compatible source (issue 43): plain `fetch` with the raw key in
 * `Authorization`, a small retry that honours `429` + `Retry-After` (seconds) and retries `5xx`
 * and network errors with exponential backoff, and typed stops:
 * - `SourceAuthError` on 401/403 (a wrong key): the import stops before writing anything;
 * - `SourceUnavailableError` when retries are exhausted: the run stops and can be resumed.
 */

/** The source refused the key (401/403). */
export class SourceAuthError extends Error {}

/** The source kept failing (5xx, network) after every retry; a later run resumes from the checkpoints. */
export class SourceUnavailableError extends Error {}

/** The source answered something this importer cannot read (4xx other than 401/403/404/429, bad JSON). */
export class SourceResponseError extends Error {}

export type SourceClientOptions = {
  /** Base URL of the source, the host root (`https://api.geekbot.com`). */
  baseUrl: string;
  /** An admin's API key of the source. */
  key: string;
  /** Attempts per request for 5xx / network errors (default 5). */
  attempts?: number;
  /** First backoff in milliseconds for 5xx / network errors, doubled per attempt (default 500). */
  backoffMs?: number;
  /** Longest `Retry-After` honoured, in seconds (default 120); longer waits are capped. */
  maxRetryAfterSeconds?: number;
  /** How many 429 answers in a row are waited out before giving up (default 20). */
  max429?: number;
  /** Milliseconds a request may take before it counts as a network error and is retried (default 60000). */
  timeoutMs?: number;
  /** Called on every retry (progress output). */
  onRetry?: (info: { path: string; status: number | null; waitMs: number }) => void;
};

/** Counters of one client (the summary prints them). */
export type SourceClientStats = { requests: number; retries: number; rateLimited: number };

/** A client bound to one source. */
export type SourceClient = {
  baseUrl: string;
  stats: SourceClientStats;
  /** GET `path` (with query) as JSON; `null` on 404 when `allow404`. @throws SourceAuthError, SourceUnavailableError, SourceResponseError */
  get<T = unknown>(path: string, opts?: { allow404?: boolean }): Promise<T | null>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  if (Number.isFinite(n)) return Math.max(0, n);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}

/** Creates a client for `opts.baseUrl` (trailing slashes ignored). */
export function sourceClient(opts: SourceClientOptions): SourceClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, "");
  const attempts = opts.attempts ?? 5;
  const backoffMs = opts.backoffMs ?? 500;
  const maxRetryAfter = opts.maxRetryAfterSeconds ?? 120;
  const max429 = opts.max429 ?? 20;
  const stats: SourceClientStats = { requests: 0, retries: 0, rateLimited: 0 };

  async function get<T>(path: string, o: { allow404?: boolean } = {}): Promise<T | null> {
    let failures = 0;
    let limited = 0;
    for (;;) {
      stats.requests++;
      let res: Response | null = null;
      let error: unknown = null;
      try {
        res = await fetch(`${baseUrl}${path}`, {
          headers: { authorization: opts.key, accept: "application/json" },
          signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
        });
      } catch (e) {
        error = e;
      }
      if (res && (res.status === 401 || res.status === 403)) {
        throw new SourceAuthError(`The source refused the API key (${res.status} on GET ${path}): check --key and --base-url.`);
      }
      if (res?.status === 429) {
        limited++;
        stats.rateLimited++;
        if (limited > max429) throw new SourceUnavailableError(`The source kept answering 429 on GET ${path}; run again later to resume.`);
        const waitMs = Math.min(retryAfterSeconds(res.headers.get("retry-after")) ?? 1, maxRetryAfter) * 1000;
        await res.body?.cancel();
        opts.onRetry?.({ path, status: 429, waitMs });
        stats.retries++;
        await sleep(waitMs);
        continue;
      }
      if (error || (res && res.status >= 500)) {
        failures++;
        await res?.body?.cancel();
        if (failures >= attempts) {
          const why = res ? `HTTP ${res.status}` : String((error as Error)?.message ?? error);
          throw new SourceUnavailableError(`The source failed ${failures} times on GET ${path} (${why}); run again to resume.`);
        }
        const waitMs = Math.max(backoffMs * 2 ** (failures - 1), (retryAfterSeconds(res?.headers.get("retry-after") ?? null) ?? 0) * 1000);
        opts.onRetry?.({ path, status: res?.status ?? null, waitMs });
        stats.retries++;
        await sleep(waitMs);
        continue;
      }
      const response = res as Response;
      if (response.status === 404 && o.allow404) {
        await response.body?.cancel();
        return null;
      }
      const text = await response.text();
      if (!response.ok) throw new SourceResponseError(`GET ${path} answered ${response.status}: ${text.slice(0, 200)}`);
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new SourceResponseError(`GET ${path} answered non-JSON: ${text.slice(0, 200)}`);
      }
    }
  }
  return { baseUrl, stats, get };
}
