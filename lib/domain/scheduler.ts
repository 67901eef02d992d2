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
 */
import { type Db, db as defaultDb, type Tx } from "@/lib/db";
import { activeMemberIds, askMembers, openOccurrence } from "@/lib/domain/occurrences";
import { isOneShot, localDateOf, nextRunAtOrNull } from "@/lib/domain/schedule";

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
const MAX_PER_CALL = 500;

/**
 * Runs every due checkin: state active, kind standup or poll, `next_run_at <= now`.
 * Per checkin, in one transaction:
 * - locks the row (`FOR UPDATE SKIP LOCKED`; rows locked by another instance are left to it);
 * - takes the latest scheduled slot that is due (a service that was down does not replay missed
 *   days) and opens the Occurrence for its local date unless one exists (`openOccurrence`; polls:
 *   `closes_at` = slot + `duration` minutes when a duration is set);
 * - asks the current checkin members (active users) through `askMembers` (lib/domain/occurrences.ts):
 *   member snapshot (absent members recorded with `asked_at` null and not asked), a pending Report
 *   per asked standup member, one direct question per asked member through the chat outbox;
 * - sets `next_run_at` to the next slot after `now` (null for a one-shot poll, recurrence.type "once").
 * @param now the current instant (UTC); tests pass a fixed one.
 * @param db a Prisma client (not a transaction client: one transaction per checkin is opened here).
 * Errors of one checkin are caught and reported in the result; they never stop the others.
 */
export async function runDueOccurrences(now: Date, db: Db = defaultDb): Promise<SchedulerRunResult> {
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
              AND id <> ALL(${exclude}::int[])
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

/** Runs one locked checkin; returns the created occurrence id, or null when the slot already had one. */
async function runLockedCheckin(tx: Tx, checkinId: number, now: Date): Promise<number | null> {
  const checkin = await tx.checkin.findUniqueOrThrow({
    where: { id: checkinId },
    select: {
      id: true,
      team_id: true,
      kind: true,
      time: true,
      timezone: true,
      days: true,
      duration: true,
      recurrence: true,
      next_run_at: true,
    },
  });
  const schedule = { time: checkin.time, timezone: checkin.timezone, days: checkin.days };
  const oneShot = isOneShot(checkin.recurrence);

  // The latest slot that is due: next_run_at, moved forward over slots missed while nothing ran.
  let scheduled = checkin.next_run_at as Date;
  if (!oneShot) {
    for (let n = 0; n < 1000; n++) {
      const following = nextRunAtOrNull({ ...schedule, after: scheduled });
      if (!following || following.getTime() > now.getTime()) break;
      scheduled = following;
    }
  }
  const next = oneShot ? null : nextRunAtOrNull({ ...schedule, after: now });
  const date = localDateOf(scheduled, checkin.timezone);
  const closesAt = checkin.kind === "poll" && checkin.duration ? new Date(scheduled.getTime() + checkin.duration * 60_000) : null;

  const occurrence = await openOccurrence(tx, checkin, { date, scheduledAt: scheduled, trigger: "schedule", closesAt, now });
  if (occurrence.created) {
    const userIds = await activeMemberIds(tx, checkin.id);
    await askMembers(tx, { checkin, occurrence: { id: occurrence.id, date }, userIds, now });
  }
  await tx.checkin.update({ where: { id: checkin.id }, data: { next_run_at: next } });
  return occurrence.created ? occurrence.id : null;
}
