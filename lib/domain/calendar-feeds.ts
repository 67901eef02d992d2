/**
 * Calendar feeds (issue 48 "Calendars excuse people"): each person may add ICS feeds (Google's
 * secret address, Outlook published calendars, Nextcloud, Fastmail) on their Profile; a team admin
 * may subscribe the team to one public-holidays ICS feed and choose the words that mark an absence.
 * Feed URLs are secret addresses: stored as given (like webhook secrets), checked against the
 * webhook address policy (lib/domain/webhook-url.ts) when saved, and only ever shown masked
 * (`maskFeedUrl`). Refreshing (the `refresh_calendars` job) lives in lib/domain/calendar-refresh.ts.
 * CalDAV accounts are not supported (ICS feeds only).
 */

import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";
import { deliverySettings } from "@/lib/env";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** Words that mark an absence when a team has not chosen its own (Team.calendar_absence_words' default). */
export const DEFAULT_ABSENCE_WORDS = ["vacation", "OOO", "out of office", "Urlaub", "congé", "holiday"];
/** Most feeds per person. */
export const MAX_FEEDS_PER_PERSON = 5;
const MAX_WORDS = 30;
const MAX_WORD_LENGTH = 40;

/** A feed as shown to its owner: never the full URL. */
export type CalendarFeedView = {
  id: number;
  kind: "absences" | "holidays";
  maskedUrl: string;
  lastFetchedAt: Date | null;
  lastError: string | null;
  /** Absences (or holidays) this feed currently provides. */
  entries: number;
};

/** `https://calendar.example.com/…a1b2`: scheme, host and the last 4 characters; never the secret path. */
export function maskFeedUrl(raw: string): string {
  try {
    const u = new URL(raw.replace(/^webcals?:/i, "https:"));
    return `${u.protocol}//${u.host}/…${raw.slice(-4)}`;
  } catch {
    return "…";
  }
}

/** Validates a feed URL (http/https/webcal, address policy). @throws InvalidParameterError */
async function checkFeedUrl(raw: unknown): Promise<string> {
  const url = typeof raw === "string" ? raw.trim() : "";
  if (!url) throw new InvalidParameterError("url: required");
  const problem = await webhookUrlProblem(url.replace(/^webcals?:/i, "https:"), { allowPrivate: deliverySettings().webhooksAllowPrivate });
  if (problem) throw new InvalidParameterError(`url: ${problem}`);
  return url;
}

/** Enqueues a refresh of one feed now (in the caller's transaction). */
async function enqueueRefresh(tx: Tx, feedId: number): Promise<void> {
  await enqueueJob(tx, "refresh_calendar_feed", { feedId }, { jobKey: `calendar_feed:${feedId}`, maxAttempts: 1 });
}

function toView(f: {
  id: number;
  kind: "absences" | "holidays";
  url: string;
  last_fetched_at: Date | null;
  last_error: string | null;
  _count: { absences: number; holidays: number };
}): CalendarFeedView {
  return {
    id: f.id,
    kind: f.kind,
    maskedUrl: maskFeedUrl(f.url),
    lastFetchedAt: f.last_fetched_at,
    lastError: f.last_error,
    entries: f.kind === "absences" ? f._count.absences : f._count.holidays,
  };
}

const feedViewSelect = {
  id: true,
  kind: true,
  url: true,
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
    const count = await t.calendarFeed.count({ where: { team_id: actor.teamId, user_id: actor.userId, kind: "absences" } });
    if (count >= MAX_FEEDS_PER_PERSON) throw new InvalidParameterError(`At most ${MAX_FEEDS_PER_PERSON} calendar feeds per person`);
    const row = await t.calendarFeed.create({
      data: { team_id: actor.teamId, user_id: actor.userId, kind: "absences", url },
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
    const row = await t.calendarFeed.create({ data: { team_id: actor.teamId, kind: "holidays", url }, select: { id: true } });
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
  return list;
}
