/**
 * Calendar feeds (issue 48 "Calendars excuse people"): each person may add ICS feeds (Google's
 * secret address, Outlook published calendars, Nextcloud, Fastmail) on their Profile; a team admin
 * may subscribe the team to one public-holidays ICS feed and choose the words that mark an absence.
 * A person may instead add a CalDAV account (server address, user name, password or app password).
 * Feed URLs are secret addresses and CalDAV passwords are credentials: both are stored sealed
 * (lib/domain/secret-box.ts, AES-256-GCM under the service secret), checked against the webhook
 * address policy (lib/domain/webhook-url.ts) when saved, and only ever shown as `display_url`
 * (scheme, host and "…"). Rows from before sealing are sealed by `sealPlainFeedUrls` (each refresh
 * of all feeds). Refreshing (the `refresh_calendars` job) lives in lib/domain/calendar-refresh.ts.
 */

import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { isSealed, openSecret, sealSecret } from "@/lib/domain/secret-box";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";
import { deliverySettings } from "@/lib/env";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** Words that mark an absence when a team has not chosen its own (Team.calendar_absence_words' default). */
export const DEFAULT_ABSENCE_WORDS = ["vacation", "OOO", "out of office", "Urlaub", "congé", "holiday"];
/** Most feeds per person. */
export const MAX_FEEDS_PER_PERSON = 5;
const MAX_WORDS = 30;
const MAX_WORD_LENGTH = 40;

/** A feed as shown to its owner: never the full URL, never the password. */
export type CalendarFeedView = {
  id: number;
  kind: "absences" | "holidays";
  /** "ics" (an address) or "caldav" (an account) */
  protocol: "ics" | "caldav";
  maskedUrl: string;
  /** CalDAV user name (null for an ICS feed) */
  username: string | null;
  lastFetchedAt: Date | null;
  lastError: string | null;
  /** Absences (or holidays) this feed currently provides. */
  entries: number;
};

/** `https://calendar.example.com/…`: scheme and host; never the secret path. */
export function maskFeedUrl(raw: string): string {
  try {
    const u = new URL(raw.replace(/^webcals?:/i, "https:"));
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return "…";
  }
}

/**
 * The stored address of a feed in clear: opened when sealed, as stored in rows from before sealing.
 * @throws SecretBoxError (sealed under another AUTH_SECRET, or altered)
 */
export function feedUrlOf(stored: string): string {
  return isSealed(stored) ? openSecret(stored) : stored;
}

/** The columns that store a feed address: sealed, with its display-safe form. */
function sealedUrl(url: string): { url: string; display_url: string } {
  return { url: sealSecret(url), display_url: maskFeedUrl(url) };
}

/**
 * Seals the addresses stored in clear by earlier versions (and fills their `display_url`); run
 * before each refresh of all feeds, since SQL migrations cannot encrypt. Returns how many it sealed.
 */
export async function sealPlainFeedUrls(tx: Tx = db): Promise<number> {
  // An exact prefix comparison (no LIKE pattern): the rows not yet in secret-box form.
  const plain = await tx.$queryRaw<{ id: number; url: string }[]>`SELECT id, url FROM calendar_feeds WHERE left(url, 4) <> 'sb1.'`;
  for (const f of plain) {
    if (isSealed(f.url)) continue;
    await tx.calendarFeed.updateMany({ where: { id: f.id, url: f.url }, data: sealedUrl(f.url) });
  }
  return plain.length;
}

/** Validates a feed URL (http/https/webcal, address policy); `name` is the field in messages. @throws InvalidParameterError */
async function checkFeedUrl(raw: unknown, name = "url"): Promise<string> {
  const url = typeof raw === "string" ? raw.trim() : "";
  if (!url) throw new InvalidParameterError(`${name}: required`);
  const problem = await webhookUrlProblem(url.replace(/^webcals?:/i, "https:"), { allowPrivate: deliverySettings().webhooksAllowPrivate });
  if (problem) throw new InvalidParameterError(`${name}: ${problem}`);
  return url;
}

/** Enqueues a refresh of one feed now (in the caller's transaction). */
async function enqueueRefresh(tx: Tx, feedId: number): Promise<void> {
  await enqueueJob(tx, "refresh_calendar_feed", { feedId }, { jobKey: `calendar_feed:${feedId}`, maxAttempts: 1 });
}

function toView(f: {
  id: number;
  kind: "absences" | "holidays";
  protocol: "ics" | "caldav";
  url: string;
  display_url: string;
  username: string | null;
  last_fetched_at: Date | null;
  last_error: string | null;
  _count: { absences: number; holidays: number };
}): CalendarFeedView {
  return {
    id: f.id,
    kind: f.kind,
    protocol: f.protocol,
    // Rows from before sealing have no display form yet: mask the plain address.
    maskedUrl: f.display_url || (isSealed(f.url) ? "…" : maskFeedUrl(f.url)),
    username: f.username,
    lastFetchedAt: f.last_fetched_at,
    lastError: f.last_error,
    entries: f.kind === "absences" ? f._count.absences : f._count.holidays,
  };
}

const feedViewSelect = {
  id: true,
  kind: true,
  protocol: true,
  url: true,
  display_url: true,
  username: true,
  last_fetched_at: true,
  last_error: true,
  _count: { select: { absences: true, holidays: true } },
} as const;

/** The actor's own calendar feeds, oldest first. */
export async function listMyCalendarFeeds(actor: Actor, tx: Tx = db): Promise<CalendarFeedView[]> {
  const rows = await tx.calendarFeed.findMany({
    where: { team_id: actor.teamId, user_id: actor.userId, kind: "absences" },
    orderBy: { id: "asc" },
    select: feedViewSelect,
  });
  return rows.map(toView);
}

/**
 * Adds an ICS feed to the actor's own calendars and enqueues its first refresh.
 * @throws InvalidParameterError (missing or refused URL, more than MAX_FEEDS_PER_PERSON feeds).
 */
export async function addCalendarFeed(actor: Actor, input: { url: string }, tx?: Tx): Promise<{ id: number }> {
  const url = await checkFeedUrl(input.url);
  return inTransaction(tx, async (t) => {
    await checkFeedCount(actor, t);
    const row = await t.calendarFeed.create({
      data: { team_id: actor.teamId, user_id: actor.userId, kind: "absences", ...sealedUrl(url) },
      select: { id: true },
    });
    await enqueueRefresh(t, row.id);
    return row;
  });
}

/** @throws InvalidParameterError when the actor already has MAX_FEEDS_PER_PERSON feeds. */
async function checkFeedCount(actor: Actor, t: Tx): Promise<void> {
  const count = await t.calendarFeed.count({ where: { team_id: actor.teamId, user_id: actor.userId, kind: "absences" } });
  if (count >= MAX_FEEDS_PER_PERSON) throw new InvalidParameterError(`At most ${MAX_FEEDS_PER_PERSON} calendar feeds per person`);
}

/**
 * Adds a CalDAV account (server address http/https, user name, password or app password) to the
 * actor's own calendars, address and password sealed, and enqueues its first refresh (which
 * discovers the calendars; a wrong password shows as the feed's error).
 * @throws InvalidParameterError (missing field, refused address, too long, too many feeds).
 */
export async function addCalDavAccount(
  actor: Actor,
  input: { serverUrl: string; username: string; password: string },
  tx?: Tx,
): Promise<{ id: number }> {
  const username = typeof input.username === "string" ? input.username.trim() : "";
  const password = typeof input.password === "string" ? input.password : "";
  if (!username) throw new InvalidParameterError("username: required");
  if (!password) throw new InvalidParameterError("password: required");
  if (username.length > 200 || password.length > 500) throw new InvalidParameterError("username or password: too long");
  const serverUrl = await checkFeedUrl(input.serverUrl, "serverUrl");
  if (!/^https?:/i.test(serverUrl)) throw new InvalidParameterError("serverUrl: must start with https:// or http://");
  return inTransaction(tx, async (t) => {
    await checkFeedCount(actor, t);
    const row = await t.calendarFeed.create({
      data: {
        team_id: actor.teamId,
        user_id: actor.userId,
        kind: "absences",
        protocol: "caldav",
        ...sealedUrl(serverUrl),
        username,
        password: sealSecret(password),
      },
      select: { id: true },
    });
    await enqueueRefresh(t, row.id);
    return row;
  });
}

/**
 * Removes one of the actor's own feeds (admins: any person feed of the team) with the current and
 * future absences it provided (past ones stay as history); manual absences stay. @throws NotFoundError
 */
export async function removeCalendarFeed(actor: Actor, input: { feedId: number }, tx?: Tx): Promise<void> {
  const where = { id: input.feedId, team_id: actor.teamId, kind: "absences" as const, ...(actor.isAdmin ? {} : { user_id: actor.userId }) };
  await inTransaction(tx, async (t) => {
    const feed = await t.calendarFeed.findFirst({ where, select: { id: true } });
    if (!feed) throw new NotFoundError("Calendar feed");
    // Past absences stay as history (participation reads them); current and future ones go with the feed.
    const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    await t.absence.updateMany({
      where: { team_id: actor.teamId, calendar_feed_id: feed.id, end_date: { lt: today } },
      data: { calendar_feed_id: null },
    });
    await t.calendarFeed.delete({ where: { id: feed.id } });
  });
}

/** The team's public-holidays feed, or null. Every member may read it (masked). */
export async function getHolidayFeed(actor: Actor, tx: Tx = db): Promise<CalendarFeedView | null> {
  const row = await tx.calendarFeed.findFirst({ where: { team_id: actor.teamId, kind: "holidays" }, select: feedViewSelect });
  return row ? toView(row) : null;
}

/**
 * Subscribes the team to a public-holidays ICS feed (admins only), replacing the previous feed and
 * the holidays it provided (typed-in holidays stay); enqueues its first refresh.
 * @throws ForbiddenError (not an admin), InvalidParameterError (missing or refused URL).
 */
export async function setHolidayFeed(actor: Actor, input: { url: string }, tx?: Tx): Promise<{ id: number }> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change the holiday calendar");
  const url = await checkFeedUrl(input.url);
  return inTransaction(tx, async (t) => {
    await t.calendarFeed.deleteMany({ where: { team_id: actor.teamId, kind: "holidays" } });
    const row = await t.calendarFeed.create({ data: { team_id: actor.teamId, kind: "holidays", ...sealedUrl(url) }, select: { id: true } });
    await enqueueRefresh(t, row.id);
    return row;
  });
}

/** Unsubscribes the team from its holidays feed and removes the holidays it provided (admins only). @throws ForbiddenError, NotFoundError */
export async function removeHolidayFeed(actor: Actor, tx: Tx = db): Promise<void> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change the holiday calendar");
  const r = await tx.calendarFeed.deleteMany({ where: { team_id: actor.teamId, kind: "holidays" } });
  if (r.count === 0) throw new NotFoundError("Holiday feed");
}

/** The words that mark an absence in the team's calendar feeds. */
export async function getAbsenceWords(actor: Actor, tx: Tx = db): Promise<string[]> {
  const t = await tx.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { calendar_absence_words: true } });
  return t.calendar_absence_words;
}

/**
 * Sets the team's absence words (admins only): `words` separated by commas or new lines, trimmed,
 * de-duplicated; an empty list restores the defaults. Takes effect at the next refresh.
 * @throws ForbiddenError, InvalidParameterError (more than 30 words or a word over 40 characters).
 */
export async function setAbsenceWords(actor: Actor, input: { words: string }, tx: Tx = db): Promise<string[]> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change the calendar words");
  const seen = new Set<string>();
  const words: string[] = [];
  for (const w of String(input.words ?? "").split(/[,\n]/)) {
    const word = w.trim();
    if (!word || seen.has(word.toLowerCase())) continue;
    if (word.length > MAX_WORD_LENGTH) throw new InvalidParameterError(`words: ${MAX_WORD_LENGTH} characters at most each`);
    seen.add(word.toLowerCase());
    words.push(word);
  }
  if (words.length > MAX_WORDS) throw new InvalidParameterError(`words: ${MAX_WORDS} at most`);
  const list = words.length ? words : DEFAULT_ABSENCE_WORDS;
  await tx.team.update({ where: { id: actor.teamId }, data: { calendar_absence_words: list } });
  await forgetFeedTags(actor, tx);
  return list;
}

/** Whether busy (TRANSP:OPAQUE) all-day events of people's calendars excuse them (team setting, default off). */
export async function getBusyAllDay(actor: Actor, tx: Tx = db): Promise<boolean> {
  const t = await tx.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { calendar_busy_all_day: true } });
  return t.calendar_busy_all_day;
}

/**
 * Chooses whether busy (TRANSP:OPAQUE, or Outlook's BUSY) all-day events excuse people, besides
 * the absence words (admins only). Takes effect at the next refresh. @throws ForbiddenError
 */
export async function setBusyAllDay(actor: Actor, input: { enabled: boolean }, tx: Tx = db): Promise<boolean> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change the calendar words");
  await tx.team.update({ where: { id: actor.teamId }, data: { calendar_busy_all_day: input.enabled === true } });
  await forgetFeedTags(actor, tx);
  return input.enabled === true;
}

/** Forgets the ETags of the team's person feeds, so that the next refresh reads them again under the new rules (not a 304). */
async function forgetFeedTags(actor: Actor, tx: Tx): Promise<void> {
  await tx.calendarFeed.updateMany({ where: { team_id: actor.teamId, kind: "absences" }, data: { etag: null } });
}
