/**
 * Refreshing calendar feeds (issue 48), the `refresh_calendars` job (every 30 minutes) and
 * `refresh_calendar_feed` (right after a feed is saved). A person's feed: every all-day event, and
 * every timed event of 8 hours or more, whose title or status contains one of the team's absence
 * words (whole words, case-insensitive), or that Outlook marks out of office
 * (X-MICROSOFT-CDO-BUSYSTATUS:OOF), becomes an out-of-office absence with source "calendar" and the
 * feed's id; so does every busy all-day event (TRANSP:OPAQUE, or Outlook's BUSY) when the team chose
 * so (`calendar_busy_all_day`); cancelled events never count. A CalDAV account is read through
 * lib/calendar/caldav-fetch.ts (tsdav) and its events go through the same reading and rules. A
 * team's holidays feed: every event's days become team holidays (a typed-in holiday on the same
 * date wins). Each refresh replaces what the feed provided
 * from 7 days ago on (older entries stay as history); manual absences and holidays are never touched.
 * An unchanged feed (304 to our ETag) changes nothing; a failing one keeps its previous entries
 * and records the reason (`last_error`).
 */
import { fetchCalDav } from "@/lib/calendar/caldav-fetch";
import { fetchIcs, type IcsFetchOptions } from "@/lib/calendar/ics-fetch";
import { type IcsOccurrence, readIcsOccurrences } from "@/lib/calendar/ics-parse";
import { db } from "@/lib/db";
import { feedUrlOf, sealPlainFeedUrls } from "@/lib/domain/calendar-feeds";
import { isValidTimezone } from "@/lib/domain/schedule";
import { openSecret, SecretBoxError } from "@/lib/domain/secret-box";

/** Timed events at least this long (minutes) can mark an absence. */
export const LONG_EVENT_MINUTES = 8 * 60;
/** Days before today that a refresh still rewrites. */
const PAST_DAYS = 7;
/** Days after today that a refresh reads. */
const FUTURE_DAYS = 366;
const DAY_MS = 86_400_000;

export type RefreshOptions = Pick<IcsFetchOptions, "allowPrivate" | "timeoutMs" | "maxBytes"> & { now?: Date };
export type RefreshResult = { feedId: number; status: "updated" | "not_modified" | "error" | "skipped"; entries?: number; error?: string };

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A matcher for whole-word, case-insensitive occurrences of any of `words`. */
function absenceMatcher(words: string[]): (text: string) => boolean {
  const parts = words
    .map((w) => w.trim())
    .filter(Boolean)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (parts.length === 0) return () => false;
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${parts.join("|")})(?![\\p{L}\\p{N}])`, "iu");
  return (text) => re.test(text.normalize("NFC"));
}

/**
 * Whether an occurrence of a person's feed marks an absence, under the team's `words`; with
 * `busyAllDay` (the team's choice) a busy all-day event does too: TRANSP:OPAQUE said explicitly
 * (Google writes it for all-day events shown as busy) or Outlook's BUSY status.
 */
export function marksAbsence(o: IcsOccurrence, matches: (text: string) => boolean, busyAllDay = false): boolean {
  if (o.status === "CANCELLED") return false;
  if (!o.allDay && o.durationMinutes < LONG_EVENT_MINUTES) return false;
  if (busyAllDay && o.allDay && (o.transp === "OPAQUE" || o.busyStatus === "BUSY")) return true;
  return o.busyStatus === "OOF" || matches(o.title) || (o.status !== "" && matches(o.status));
}

type FetchedFeed =
  | { status: "not_modified" }
  | { status: "ok"; bodies: string[]; etag: string | null }
  | { status: "error"; message: string };

/** Fetches a feed's calendar texts: one ICS address, or every event calendar of a CalDAV account. */
async function fetchFeed(
  feed: { protocol: "ics" | "caldav"; url: string; username: string | null; password: string | null; etag: string | null },
  window: { from: string; to: string },
  opts: RefreshOptions,
): Promise<FetchedFeed> {
  let url: string;
  let password: string;
  try {
    url = feedUrlOf(feed.url);
    password = feed.protocol === "caldav" ? openSecret(feed.password ?? "") : "";
  } catch (err) {
    if (err instanceof SecretBoxError) return { status: "error", message: `${err.message}: remove this calendar and add it again` };
    throw err;
  }
  if (feed.protocol === "ics") {
    const r = await fetchIcs(url, { ...opts, etag: feed.etag });
    return r.status === "ok" ? { status: "ok", bodies: [r.body], etag: r.etag } : r;
  }
  const start = new Date(`${window.from}T00:00:00Z`);
  // One day beyond `to` on both sides: local dates of any zone fall inside the UTC window.
  start.setUTCDate(start.getUTCDate() - 1);
  const end = new Date(`${window.to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 2);
  return fetchCalDav({ serverUrl: url, username: feed.username ?? "", password }, { start, end }, { ...opts, etag: feed.etag });
}

/**
 * Refreshes one feed: conditional fetch, parse, replace its entries from 7 days ago on, record
 * the ETag / time / error. Never throws for feed problems (they are recorded); throws on database errors.
 */
export async function refreshCalendarFeed(feedId: number, opts: RefreshOptions): Promise<RefreshResult> {
  const now = opts.now ?? new Date();
  const feed = await db.calendarFeed.findUnique({
    where: { id: feedId },
    select: {
      id: true,
      team_id: true,
      user_id: true,
      kind: true,
      protocol: true,
      url: true,
      username: true,
      password: true,
      etag: true,
      team: { select: { timezone: true, calendar_absence_words: true, calendar_busy_all_day: true } },
      user: { select: { timezone: true, deactivated_at: true } },
    },
  });
  if (!feed || feed.user?.deactivated_at) return { feedId, status: "skipped" };
  const zone = feed.user?.timezone ?? feed.team.timezone;
  const timeZone = isValidTimezone(zone) ? zone : "UTC";
  const from = isoDay(now.getTime() - PAST_DAYS * DAY_MS);
  const to = isoDay(now.getTime() + FUTURE_DAYS * DAY_MS);
  const fetched = await fetchFeed(feed, { from, to }, opts);
  if (fetched.status === "not_modified") {
    await db.calendarFeed.update({ where: { id: feed.id }, data: { last_fetched_at: now, last_error: null } });
    return { feedId, status: "not_modified" };
  }
  const fail = async (error: string): Promise<RefreshResult> => {
    await db.calendarFeed.update({ where: { id: feed.id }, data: { last_fetched_at: now, last_error: error.slice(0, 300) } });
    return { feedId, status: "error", error };
  };
  if (fetched.status === "error") return fail(fetched.message);

  let occurrences: IcsOccurrence[];
  try {
    occurrences = fetched.bodies.flatMap((body) => readIcsOccurrences(body, { from, to, timeZone }));
  } catch (err) {
    return fail(`not a readable iCalendar feed: ${(err as Error).message}`);
  }
  const fromDate = new Date(`${from}T00:00:00Z`);

  let entries = 0;
  await db.$transaction(async (tx) => {
    // One refresh of a feed at a time (the cron and a just-saved feed's job may overlap).
    await tx.$executeRaw`SELECT 1 FROM calendar_feeds WHERE id = ${feed.id} FOR UPDATE`;
    if (feed.kind === "absences" && feed.user_id !== null) {
      const matches = absenceMatcher(feed.team.calendar_absence_words);
      const ranges = new Map<string, { start: string; end: string }>();
      for (const o of occurrences)
        if (marksAbsence(o, matches, feed.team.calendar_busy_all_day))
          ranges.set(`${o.startDate}/${o.endDate}`, { start: o.startDate, end: o.endDate });
      await tx.absence.deleteMany({ where: { calendar_feed_id: feed.id, source: "calendar", end_date: { gte: fromDate } } });
      const rows = [...ranges.values()].map((r) => ({
        team_id: feed.team_id,
        user_id: feed.user_id as number,
        kind: "out_of_office" as const,
        start_date: new Date(`${r.start}T00:00:00Z`),
        end_date: new Date(`${r.end}T00:00:00Z`),
        source: "calendar",
        calendar_feed_id: feed.id,
      }));
      if (rows.length) await tx.absence.createMany({ data: rows });
      entries = rows.length;
    } else if (feed.kind === "holidays") {
      const days = new Map<string, string>();
      for (const o of occurrences) {
        if (o.status === "CANCELLED") continue;
        const first = Math.max(Date.parse(`${o.startDate}T00:00:00Z`), fromDate.getTime());
        const last = Date.parse(`${o.endDate}T00:00:00Z`);
        for (let t = first; t <= last && days.size < 1000; t += DAY_MS) {
          const d = isoDay(t);
          if (!days.has(d)) days.set(d, (o.title.trim() || "Holiday").slice(0, 100));
        }
      }
      await tx.teamHoliday.deleteMany({ where: { calendar_feed_id: feed.id, date: { gte: fromDate } } });
      const rows = [...days].map(([d, name]) => ({
        team_id: feed.team_id,
        date: new Date(`${d}T00:00:00Z`),
        name,
        calendar_feed_id: feed.id,
      }));
      // A date that is already a (typed-in) holiday keeps it.
      if (rows.length) entries = (await tx.teamHoliday.createMany({ data: rows, skipDuplicates: true })).count;
    }
    await tx.calendarFeed.update({ where: { id: feed.id }, data: { etag: fetched.etag, last_fetched_at: now, last_error: null } });
  });
  return { feedId, status: "updated", entries };
}

/** Refreshes every feed of every team (people's feeds of active accounts and holiday feeds), two at a time. */
export async function refreshAllCalendarFeeds(opts: RefreshOptions): Promise<RefreshResult[]> {
  await sealPlainFeedUrls();
  const feeds = await db.calendarFeed.findMany({ orderBy: { id: "asc" }, select: { id: true } });
  const results: RefreshResult[] = [];
  const queue = feeds.map((f) => f.id);
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) results.push(await refreshCalendarFeed(id, opts));
  };
  await Promise.all([worker(), worker()]);
  return results;
}
