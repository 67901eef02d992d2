/**
 * The scheduler: turns due standups and polls into occurrences (one run of a standup / one
 * broadcast of a poll, ARCHITECTURE §3) and asks their members.
 *
 * Called every minute by the `schedule_tick` job (lib/jobs/tasks.ts) and safe to run from many app
 * instances at once: every checkin is handled in its own transaction that first locks the checkin
 * row with `FOR UPDATE SKIP LOCKED`, so two instances never run the same checkin, and the unique
 * (checkin_id, date) of occurrences is the last guard against a double run.
 *
 * Times: `checkins.next_run_at` is a UTC instant; occurrence `date` is the local date in the
 * checkin's timezone; poll `duration` is in minutes.
 *
 * This module is the tick only (issue 51): nothing outside lib/jobs imports it. Opening a run is
 * lib/domain/occurrences.ts (`openScheduledOccurrence`), the next run lib/domain/asking-times.ts
 * (`refreshNextRunAt`), so a write that needs them does not load the tick's closing, summaries and
 * categorization (the offline NLP model).
 */

import { type Db, db as defaultDb } from "@/lib/db";
import { askDueBatch, askDueMembers, type TickScope } from "@/lib/domain/asking";
import { askingScheduleOf, checkinScheduleSelect, isOneShot, occurrenceDateAt, safeNextStart } from "@/lib/domain/asking-times";
import { isTeamHoliday } from "@/lib/domain/holidays";
import { closeDueOccurrences } from "@/lib/domain/occurrence-close";
import { openScheduledOccurrence } from "@/lib/domain/occurrences";
import { broadcastPollRun } from "@/lib/domain/outbox-polls";
import { sendDueReminders } from "@/lib/domain/reminders";
import type { Prisma } from "@/lib/generated/prisma/client";

type TxClient = Prisma.TransactionClient;

/** What one `runDueOccurrences` call did. */
export type SchedulerRunResult = {
  /** Occurrences created (ids). */
  created: number[];
  /** Checkins whose slot already had an occurrence (only next_run_at moved). */
  skipped: number[];
  /** Checkins that failed (left for the next tick; the error is in `errors`). */
  failed: number[];
  errors: Array<{ checkinId: number; message: string }>;
};

/** At most this many checkins are handled per call; the next tick continues. */
const MAX_PER_CALL = 5_000;

/**
 * Runs every due checkin: state active, kind standup or poll, `next_run_at <= now`.
 * Per checkin, in one transaction:
 * - locks the row (`FOR UPDATE SKIP LOCKED`; rows locked by another instance are left to it);
 * - takes the latest occurrence start that is due (a service that was down does not replay missed
 *   days; see lib/domain/asking-times.ts for personalised standups and `wait_time`) and opens the
 *   Occurrence of its date, or completes the one that exists (`openScheduledOccurrence`);
 *   standups skip team holidays (lib/domain/holidays.ts): no occurrence at all that date;
 * - snapshots the current checkin members (active users) into OccurrenceMember with the instant
 *   each is due (`due_at`); members with an absence covering the date are `excused`, never asked;
 * - asks the members already due (lib/domain/asking.ts `askDueBatch`: pending report + question
 *   message); members due later (wait_time, personalised) are asked by the tick's asking pass;
 * - `closes_at`: standups the end of the response window, polls slot + `duration` minutes;
 * - sets `next_run_at` to the next occurrence start after `now` (null for a one-shot poll and for
 *   standups without automatic asking).
 * @param now the current instant (UTC); tests pass a fixed one.
 * @param db a Prisma client (not a transaction client: one transaction per checkin is opened here).
 * Errors of one checkin are caught and reported in the result; they never stop the others.
 */
export async function runDueOccurrences(now: Date, db: Db = defaultDb, scope: TickScope = {}): Promise<SchedulerRunResult> {
  const teamId = scope.teamId ?? null;
  const result: SchedulerRunResult = { created: [], skipped: [], failed: [], errors: [] };
  for (let i = 0; i < MAX_PER_CALL; i++) {
    const exclude = result.failed.length ? result.failed : [0];
    const attempt: { lockedId: number | null } = { lockedId: null };
    let outcome: { checkinId: number; occurrenceId: number | null } | null;
    try {
      outcome = await db.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<Array<{ id: number }>>`
            SELECT id FROM checkins
            WHERE state = 'active' AND kind IN ('standup', 'poll') AND next_run_at <= ${now}
              AND id <> ALL(${exclude}::int[]) AND (${teamId}::int IS NULL OR team_id = ${teamId}::int)
            ORDER BY next_run_at, id
            LIMIT 1
            FOR UPDATE SKIP LOCKED`;
          if (rows.length === 0) return null;
          attempt.lockedId = rows[0].id;
          return { checkinId: rows[0].id, occurrenceId: await runLockedCheckin(tx, rows[0].id, now) };
        },
        { timeout: 60_000, maxWait: 30_000 },
      );
    } catch (err) {
      if (attempt.lockedId === null) throw err; // the lock query itself failed: database trouble, let the job retry
      result.failed.push(attempt.lockedId);
      result.errors.push({ checkinId: attempt.lockedId, message: (err as Error)?.message ?? String(err) });
      continue;
    }
    if (outcome === null) break;
    if (outcome.occurrenceId === null) result.skipped.push(outcome.checkinId);
    else result.created.push(outcome.occurrenceId);
  }
  return result;
}

/** Runs one locked checkin; returns the created occurrence id, or null when none was opened. */
async function runLockedCheckin(tx: TxClient, checkinId: number, now: Date): Promise<number | null> {
  const checkin = await tx.checkin.findUniqueOrThrow({ where: { id: checkinId }, select: checkinScheduleSelect });
  const schedule = askingScheduleOf(checkin);
  const zones = checkin.members.map((m) => m.user.timezone);
  const oneShot = isOneShot(checkin.recurrence);
  const dueAt = checkin.next_run_at as Date;

  // The latest slot that is due: the one next_run_at names, moved forward over slots missed while
  // nothing ran (a service that was down does not replay missed days).
  let slot: { date: string; at: Date } | null = oneShot
    ? { date: occurrenceDateAt(schedule, dueAt), at: dueAt }
    : safeNextStart(schedule, zones, new Date(dueAt.getTime() - 1));
  // A next_run_at the schedule does not produce (set by hand or by an older version): run it as
  // given, on its local date, like the one-shot case (never for standups without automatic asking).
  if (!oneShot && schedule.waitTime !== null && (!slot || slot.at.getTime() > now.getTime())) {
    slot = { date: occurrenceDateAt(schedule, dueAt), at: dueAt };
  }
  if (!oneShot && slot) {
    for (let n = 0; n < 1000; n++) {
      const following = safeNextStart(schedule, zones, slot.at);
      if (!following || following.at.getTime() > now.getTime()) break;
      slot = following;
    }
  }
  const next = oneShot ? null : (safeNextStart(schedule, zones, slot && slot.at > now ? slot.at : now)?.at ?? null);
  await tx.checkin.update({ where: { id: checkin.id }, data: { next_run_at: next } });
  // A stale next_run_at (the schedule changed) or a team holiday: nothing runs this time.
  if (!slot || slot.at.getTime() > now.getTime()) return null;
  if (checkin.kind === "standup" && (await isTeamHoliday(tx, checkin.team_id, slot.date))) return null;

  const opened = await openScheduledOccurrence(tx, checkin, schedule, slot, now);
  // A poll's run is also posted to its channel (once: only when this tick opened it).
  if (checkin.kind === "poll" && opened.created) await broadcastPollRun(tx, { pollId: checkin.id, occurrenceId: opened.id }, now);
  await askDueBatch(tx, now, { occurrenceIds: [opened.id] });
  return opened.created ? opened.id : null;
}

/** What one scheduler tick did (counts; `errors` of checkins that failed to open). */
export type TickResult = {
  opened: number;
  asked: number;
  reminded: number;
  closed: number;
  errors: SchedulerRunResult["errors"];
  /** Milliseconds per step and in total. */
  ms: { open: number; ask: number; remind: number; close: number; total: number };
};

/**
 * One tick of the asking loop, in order: open the due occurrences (`runDueOccurrences`), ask every
 * member due by now (wait_time, personalised), send due reminders, close the occurrences whose
 * response window ended. Each step is safe to run from several app instances at once. `scope`
 * limits every step to one team (tests); the job runs over all teams.
 */
export async function runSchedulerTick(now: Date, db: Db = defaultDb, scope: TickScope = {}): Promise<TickResult> {
  const t0 = performance.now();
  const run = await runDueOccurrences(now, db, scope);
  const t1 = performance.now();
  const asked = await askDueMembers(now, db, scope);
  const t2 = performance.now();
  const reminded = await sendDueReminders(now, db, scope);
  const t3 = performance.now();
  const closed = await closeDueOccurrences(now, db, scope);
  const t4 = performance.now();
  return {
    opened: run.created.length,
    asked,
    reminded,
    closed,
    errors: run.errors,
    ms: { open: t1 - t0, ask: t2 - t1, remind: t3 - t2, close: t4 - t3, total: t4 - t0 },
  };
}
