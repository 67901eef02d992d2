/**
 * HTTP for the activity connectors (issue 48 "Activity pre-fills answers"): one JSON request with a
 * time limit, a size cap counted while streaming, the webhook address policy (lib/chat/webhook-url.ts:
 * no loopback, private or link-local targets unless `WEBHOOKS_ALLOW_PRIVATE=true`; redirects are not
 * followed) and failures turned into `ActivitySourceError`s whose message a person can read
 * ("token rejected (401)"). Also the `Link: <…>; rel="next"` parser the forges' pagination uses.
 */
import { readCapped } from "@/lib/calendar/ics-fetch";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";

/** Time limit of one request to a forge or tracker, milliseconds. */
export const ACTIVITY_REQUEST_TIMEOUT_MS = 10_000;
/** Size cap of one answer page, bytes (2 MiB). */
export const ACTIVITY_MAX_BYTES = 2 * 1024 * 1024;
/** Pages followed per source and fetch (Link / X-Next-Page / startAt / cursor). */
export const ACTIVITY_MAX_PAGES = 5;
/** Items kept per source and fetch (newest first). */
export const ACTIVITY_MAX_ITEMS = 50;

/** A source failed; `message` says why in words shown to the person ("token rejected (401)"). */
export class ActivitySourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ActivitySourceError";
  }
}

/** What every connector request needs: the address policy and the caps (tests lower them). */
export type ActivityHttpOptions = { allowPrivate: boolean; timeoutMs?: number; maxBytes?: number };

/** One JSON answer: the parsed body and the response headers. */
export type JsonAnswer = { body: unknown; headers: Headers };

/** Why a status failed, in words. */
function statusReason(status: number): string {
  if (status === 401) return "token rejected (401)";
  if (status === 403) return "access denied or rate limited (403)";
  if (status === 404) return "not found (404): check the address and account";
  if (status === 429) return "rate limited (429)";
  return `HTTP ${status}`;
}

/**
 * Sends one request and parses its JSON answer.
 * @param init method (default GET), headers and a JSON `body` (sent as application/json); `graphql`:
 *   a 400 answer is parsed too (GraphQL servers such as Linear's say what failed in `errors`).
 * @throws ActivitySourceError (refused address, timeout, non-2xx status, oversized or non-JSON answer).
 */
export async function requestJson(
  url: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: unknown; graphql?: boolean },
  opts: ActivityHttpOptions,
): Promise<JsonAnswer> {
  const timeoutMs = opts.timeoutMs ?? ACTIVITY_REQUEST_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? ACTIVITY_MAX_BYTES;
  const problem = await webhookUrlProblem(url, { allowPrivate: opts.allowPrivate });
  if (problem) throw new ActivitySourceError(`address refused: ${problem}`);
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? "GET",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        accept: "application/json",
        "user-agent": "team-checkin-activity",
        ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
        ...init.headers,
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
  } catch (err) {
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") throw new ActivitySourceError(`no answer within ${timeoutMs} ms`);
    throw new ActivitySourceError(`unreachable (${(e.cause as Error | undefined)?.message ?? e.message})`);
  }
  if (!res.ok && !(init.graphql && res.status === 400)) {
    await res.body?.cancel();
    throw new ActivitySourceError(
      res.status >= 300 && res.status < 400 ? `redirected (${res.status}): check the address` : statusReason(res.status),
    );
  }
  const text = await readBody(res, maxBytes, timeoutMs);
  try {
    return { body: JSON.parse(text), headers: res.headers };
  } catch {
    throw new ActivitySourceError("the answer is not JSON: check the address");
  }
}

/** The body as UTF-8 text (`readCapped` of the ICS fetch). @throws ActivitySourceError once more than `maxBytes` arrived or the body stalls. */
async function readBody(res: Response, maxBytes: number, timeoutMs: number): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new ActivitySourceError(`answer larger than ${maxBytes} bytes`);
  }
  let text: string | null;
  try {
    text = await readCapped(res, maxBytes);
  } catch {
    throw new ActivitySourceError(`no complete answer within ${timeoutMs} ms`);
  }
  if (text === null) throw new ActivitySourceError(`answer larger than ${maxBytes} bytes`);
  return text;
}

/** The `rel="next"` target of a `Link` header (RFC 8288), or null. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(",")) {
    const m = /<([^>]+)>\s*;(.*)$/.exec(part.trim());
    if (m && /\brel="?([^";]*\s)?next(\s[^";]*)?"?/.test(m[2])) return m[1];
  }
  return null;
}

/** `base` without trailing slashes. */
export function trimSlash(base: string): string {
  return base.replace(/\/+$/, "");
}

/** A page URL from a `Link` header must stay on the connection's host (no token sent elsewhere). */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** `value` as a record (or an empty one). */
export function rec(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `value` as a string (or ""). */
export function str(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/** `value` as an array (or an empty one). */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
