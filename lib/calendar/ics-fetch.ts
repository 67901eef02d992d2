/**
 * Fetching an ICS calendar feed (issue 48 "Calendars excuse people"): one conditional GET
 * (`If-None-Match` with the ETag of the previous fetch), a time limit, a size cap counted while
 * streaming, and the webhook address policy (lib/domain/webhook-url.ts: no loopback, private or
 * link-local targets unless `WEBHOOKS_ALLOW_PRIVATE=true`), checked again on every redirect hop.
 */
import { webhookUrlProblem } from "@/lib/domain/webhook-url";

/** Default time limit of one feed fetch, milliseconds. */
export const ICS_FETCH_TIMEOUT_MS = 10_000;
/** Default size cap of one feed, bytes (5 MiB). */
export const ICS_MAX_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;

export type IcsFetchOptions = { allowPrivate: boolean; timeoutMs?: number; maxBytes?: number; etag?: string | null };

/** `not_modified` (304 to our ETag), `ok` (the body and its new ETag) or `error` (why; nothing changes). */
export type IcsFetchResult =
  | { status: "not_modified" }
  | { status: "ok"; body: string; etag: string | null }
  | { status: "error"; message: string };

/** A redirect status. */
export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * Fetches `url` (`webcal:` is read as `https:`). Never throws: refusals, timeouts, HTTP errors
 * and oversized bodies come back as `{ status: "error", message }`.
 */
export async function fetchIcs(url: string, opts: IcsFetchOptions): Promise<IcsFetchResult> {
  const timeoutMs = opts.timeoutMs ?? ICS_FETCH_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? ICS_MAX_BYTES;
  const signal = AbortSignal.timeout(timeoutMs);
  let target = url.replace(/^webcals?:/i, "https:");
  try {
    for (let hop = 0; ; hop++) {
      const problem = await webhookUrlProblem(target, { allowPrivate: opts.allowPrivate });
      if (problem) return { status: "error", message: `address refused: ${problem}` };
      const res = await fetch(target, {
        redirect: "manual",
        signal,
        headers: { accept: "text/calendar, */*;q=0.5", ...(opts.etag ? { "if-none-match": opts.etag } : {}) },
      });
      if (isRedirect(res.status) && res.headers.get("location")) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS) return { status: "error", message: "too many redirects" };
        target = new URL(res.headers.get("location")!, target).toString();
        continue;
      }
      if (res.status === 304) return { status: "not_modified" };
      if (!res.ok) {
        await res.body?.cancel();
        return { status: "error", message: `HTTP ${res.status}` };
      }
      const declared = Number(res.headers.get("content-length") ?? "0");
      if (declared > maxBytes) {
        await res.body?.cancel();
        return { status: "error", message: `feed larger than ${maxBytes} bytes` };
      }
      const body = await readCapped(res, maxBytes);
      if (body === null) return { status: "error", message: `feed larger than ${maxBytes} bytes` };
      return { status: "ok", body, etag: res.headers.get("etag") };
    }
  } catch (err) {
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") return { status: "error", message: `no answer within ${timeoutMs} ms` };
    return { status: "error", message: `fetch failed: ${e.message}` };
  }
}

/** The body as UTF-8 text, or null once more than `maxBytes` arrived (the rest is not read). Also used by lib/activity/http.ts. */
export async function readCapped(res: Response, maxBytes: number): Promise<string | null> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
