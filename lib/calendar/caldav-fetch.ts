/**
 * Reading a CalDAV account (issue 48 "Calendars excuse people") with `tsdav`: service discovery
 * (`/.well-known/caldav`, `current-user-principal`, `calendar-home-set`), the account's event
 * calendars (PROPFIND Depth 1 with `getctag`), then one `calendar-query` REPORT per calendar for the
 * VEVENTs of a time window with their `calendar-data`. The iCalendar texts are handed back as they
 * came; they are read by lib/calendar/ics-parse.ts (ical.js) like an ICS feed.
 *
 * Every request goes through the same rules as an ICS fetch (lib/calendar/ics-fetch.ts): the
 * webhook address policy on every URL and redirect hop, one time limit for the whole refresh,
 * and one size cap counted over every answer. Basic authentication (user name + password or app
 * password), as Nextcloud, Fastmail, iCloud and Radicale accept it.
 */
import { createHash } from "node:crypto";
import { calendarQuery, createAccount, type DAVCalendar, type DAVResponse, fetchCalendars, getBasicAuthHeaders } from "tsdav";
import { ICS_FETCH_TIMEOUT_MS, ICS_MAX_BYTES, type IcsFetchOptions, isRedirect, readCapped } from "@/lib/calendar/ics-fetch";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";

const MAX_REDIRECTS = 3;
/** Most calendars of one account that are read. */
const MAX_CALENDARS = 20;

export type CalDavAccount = { serverUrl: string; username: string; password: string };

/**
 * `not_modified` (every calendar's `getctag` equals the previous refresh's, given as `opts.etag`),
 * `ok` (the calendar objects' iCalendar texts and the tag to remember) or `error` (why).
 */
export type CalDavFetchResult =
  | { status: "not_modified" }
  | { status: "ok"; bodies: string[]; etag: string | null; calendars: number }
  | { status: "error"; message: string };

/** A refusal of our own (address policy, size cap): its message is the reason shown. */
class CalDavRefusal extends Error {}

/**
 * A `fetch` for tsdav: the address policy on every hop, redirects followed here (at most 3, the
 * method and body kept except after a 303) unless the caller asked for `redirect: "manual"`,
 * `signal` for the time limit, and every answer read within what is left of `budget.bytes`.
 */
function guardedFetch(allowPrivate: boolean, signal: AbortSignal, budget: { bytes: number; cap: number }): typeof fetch {
  return async (input, init = {}) => {
    let target = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    let method = init.method ?? "GET";
    let body = init.body;
    for (let hop = 0; ; hop++) {
      const problem = await webhookUrlProblem(target, { allowPrivate });
      if (problem) throw new CalDavRefusal(`address refused: ${problem}`);
      const res = await fetch(target, { ...init, method, body, redirect: "manual", signal });
      const location = res.headers.get("location");
      if (init.redirect !== "manual" && isRedirect(res.status) && location) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new CalDavRefusal("too many redirects");
        target = new URL(location, target).toString();
        if (res.status === 303) {
          method = "GET";
          body = undefined;
        }
        continue;
      }
      const text = await readCapped(res, budget.bytes);
      if (text === null) throw new CalDavRefusal(`calendar data larger than ${budget.cap} bytes`);
      budget.bytes -= Buffer.byteLength(text);
      const empty = res.status === 204 || res.status === 304;
      return new Response(empty ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
  };
}

/** `YYYYMMDDTHHMMSSZ` of an instant (CalDAV time-range attributes). */
function davTime(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
}

/** The text of a `calendar-data` property as tsdav's XML reader gives it (string, `_cdata` or `_text`). */
function calendarDataText(raw: unknown): string | null {
  if (typeof raw === "string") return raw;
  if (raw && typeof raw === "object") {
    const o = raw as { _cdata?: unknown; _text?: unknown };
    if (typeof o._cdata === "string") return o._cdata;
    if (typeof o._text === "string") return o._text;
  }
  return null;
}

/** A single non-XML failure answer of tsdav's request helper, as `HTTP <status>`; else null. */
function failedAnswer(responses: DAVResponse[]): string | null {
  const [first] = responses;
  if (responses.length === 1 && first && !first.ok && first.raw !== undefined) return `HTTP ${first.status}`;
  return null;
}

/** The reason shown for an error thrown while reading the account. */
function reasonOf(err: unknown, timeoutMs: number): string {
  const e = err as Error;
  if (e.name === "TimeoutError" || e.name === "AbortError") return `no answer within ${timeoutMs} ms`;
  if (err instanceof CalDavRefusal) return e.message;
  if (/401|Unauthorized|Invalid credentials/i.test(e.message)) return "the CalDAV server refused the user name or password (HTTP 401)";
  if (/cannot find (principalUrl|homeUrl)/.test(e.message)) return "no CalDAV calendars found at this address";
  return `CalDAV request failed: ${e.message}`;
}

/** A tag of the account's calendars (their URLs and `getctag`/`sync-token`), or null when one has neither. */
function calendarsTag(calendars: DAVCalendar[]): string | null {
  if (calendars.some((c) => !c.ctag && !c.syncToken)) return null;
  const parts = calendars.map((c) => `${c.url} ${c.ctag ?? ""} ${c.syncToken ?? ""}`).sort();
  return `"caldav-${createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 32)}"`;
}

/**
 * Reads the VEVENTs of `window` (UTC instants) from every event calendar of the account. Never
 * throws: a refused address, a wrong password, a timeout, an oversized answer or a server error
 * comes back as `{ status: "error", message }` in words the person can act on.
 */
export async function fetchCalDav(
  account: CalDavAccount,
  window: { start: Date; end: Date },
  opts: IcsFetchOptions,
): Promise<CalDavFetchResult> {
  const timeoutMs = opts.timeoutMs ?? ICS_FETCH_TIMEOUT_MS;
  const cap = opts.maxBytes ?? ICS_MAX_BYTES;
  const fetchImpl = guardedFetch(opts.allowPrivate, AbortSignal.timeout(timeoutMs), { bytes: cap, cap });
  const headers = getBasicAuthHeaders({ username: account.username, password: account.password });
  try {
    const dav = await createAccount({
      account: {
        serverUrl: account.serverUrl,
        accountType: "caldav",
        credentials: { username: account.username, password: account.password },
      },
      headers,
      fetch: fetchImpl,
    });
    const calendars = (await fetchCalendars({ account: dav, headers, fetch: fetchImpl }))
      .filter((c) => !c.components?.length || c.components.includes("VEVENT"))
      .slice(0, MAX_CALENDARS);
    const tag = calendarsTag(calendars);
    if (tag && opts.etag && tag === opts.etag) return { status: "not_modified" };
    const bodies: string[] = [];
    const objectTags: string[] = [];
    for (const cal of calendars) {
      const responses = await calendarQuery({
        url: cal.url,
        props: { "d:getetag": {}, "c:calendar-data": {} },
        filters: {
          "comp-filter": {
            _attributes: { name: "VCALENDAR" },
            "comp-filter": {
              _attributes: { name: "VEVENT" },
              "time-range": { _attributes: { start: davTime(window.start), end: davTime(window.end) } },
            },
          },
        },
        depth: "1",
        headers,
        fetch: fetchImpl,
      });
      const failed = failedAnswer(responses);
      if (failed) return { status: "error", message: `calendar ${cal.displayName || cal.url}: ${failed}` };
      for (const r of responses) {
        const text = calendarDataText(r.props?.calendarData);
        if (!text) continue;
        bodies.push(text);
        objectTags.push(`${r.href ?? ""} ${String(r.props?.getetag ?? "")}`);
      }
    }
    const etag = tag ?? `"caldav-${createHash("sha256").update(objectTags.sort().join("\n")).digest("hex").slice(0, 32)}"`;
    if (!tag && opts.etag && etag === opts.etag) return { status: "not_modified" };
    return { status: "ok", bodies, etag, calendars: calendars.length };
  } catch (err) {
    return { status: "error", message: reasonOf(err, timeoutMs) };
  }
}
