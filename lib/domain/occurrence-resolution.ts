/**
 * Which occurrence a member's report belongs to (issue 10 "Late and early answers"). One rule for
 * `POST /v2/reports`, `POST /v1/reports/`, the dashboard and chat submissions:
 *
 * 1. the member's OLDEST ANSWERABLE PENDING report of that standup: its occurrence is still open
 *    (`closes_at` null or in the future) or closed less than `late_answer_days` days ago (a late
 *    answer; 0 = none). The report is completed in place and a "missed" mark is cleared;
 * 2. else TODAY's occurrence (today = the standup's local date, or the member's own local date for
 *    personalised standups) when one was started today (schedule or "Ask now"), or when the standup
 *    runs today on its schedule (automatic asking, a scheduled weekday, not a team holiday): it is
 *    opened now with the full roster and each member's due time, so the others are still asked at
 *    their time and the early author is not asked again;
 * 3. else an UNSCHEDULED (ad-hoc) occurrence of today (`trigger = adhoc`): it has no roster, so it
 *    expects nobody; participation counts it as a response of its authors only (expected =
 *    responded = its authors; an ad-hoc occurrence whose reports were all discarded is not listed)
 *    and never changes another member's participation. It has no window and never closes.
 */
import type { Tx } from "@/lib/db";
import { activeMembersSelect, askingScheduleOf, runsOn, type ScheduleColumns, slotOn, slotTimezone } from "@/lib/domain/asking-times";
import { isTeamHoliday } from "@/lib/domain/holidays";
import { openOccurrence } from "@/lib/domain/occurrences";
import { localDateOf } from "@/lib/domain/schedule";
import { openScheduledOccurrence } from "@/lib/domain/scheduler";

/**
 * What the resolution chose. `pendingReportId` is set for rule 1 (complete that report);
 * `answeredReportId` when the member already submitted a report for today's run (rule 2): the
 * submission edits it instead of adding a second report (issue 41).
 */
export type ResolvedOccurrence = {
  occurrenceId: number;
  pendingReportId: number | null;
  answeredReportId?: number | null;
  rule: "pending" | "today" | "adhoc";
  /** Local date of the occurrence, "YYYY-MM-DD". */
  date: string;
};

/** The standup fields the resolution reads. */
export type ResolvableStandup = ScheduleColumns & { id: number; team_id: number; late_answer_days: number; duration: number | null };

/**
 * Resolves the occurrence of a submission by `user` at `now` (see the module rules), creating
 * today's or an ad-hoc occurrence when needed, inside the caller's transaction. The chosen pending
 * report is locked (`FOR UPDATE`).
 */
export async function resolveSubmissionOccurrence(
  tx: Tx,
  standup: ResolvableStandup,
  user: { id: number; timezone: string },
  now: Date,
): Promise<ResolvedOccurrence> {
  const pending = await tx.$queryRaw<Array<{ id: number; occurrence_id: number; date: string; missed: boolean }>>`
    SELECT r.id, r.occurrence_id, to_char(o.date, 'YYYY-MM-DD') AS date
    FROM reports r JOIN occurrences o ON o.id = r.occurrence_id
    WHERE r.checkin_id = ${standup.id} AND r.user_id = ${user.id} AND r.status = 'pending'
      AND (o.closes_at IS NULL OR o.closes_at > ${now}
           OR o.closes_at + make_interval(days => ${Math.max(0, standup.late_answer_days)}) > ${now})
    ORDER BY o.date, o.id, r.id
    LIMIT 1
    FOR UPDATE OF r`;
  if (pending.length) {
    const p = pending[0];
    await tx.$executeRaw`UPDATE occurrence_members SET missed_at = NULL WHERE occurrence_id = ${p.occurrence_id} AND user_id = ${user.id}`;
    return { occurrenceId: p.occurrence_id, pendingReportId: p.id, rule: "pending", date: p.date };
  }

  const schedule = askingScheduleOf(standup);
  const today = localDateOf(now, slotTimezone(schedule, user.timezone));
  const existing = await tx.$queryRaw<Array<{ id: number; trigger: string }>>`
    SELECT id, trigger::text AS trigger FROM occurrences WHERE checkin_id = ${standup.id} AND date = ${today}::date`;
  if (existing.length && existing[0].trigger !== "adhoc") return joinToday(tx, standup, existing[0].id, user.id, today, now);
  if (!existing.length && schedule.waitTime !== null && runsOn(today, standup.days) && !(await isTeamHoliday(tx, standup.team_id, today))) {
    const { members } = await tx.checkin.findUniqueOrThrow({ where: { id: standup.id }, select: { members: activeMembersSelect } });
    const zones = members.length ? members.map((m) => m.user.timezone) : [user.timezone];
    const at = earliestSlot(schedule, today, zones, now);
    const opened = await openScheduledOccurrence(tx, { ...standup, members }, schedule, { date: today, at }, now);
    return joinToday(tx, standup, opened.id, user.id, today, now);
  }

  if (existing.length) return { occurrenceId: existing[0].id, pendingReportId: null, rule: "adhoc", date: today };
  const adhoc = await openOccurrence(tx, standup, { date: today, scheduledAt: now, trigger: "adhoc", now });
  return { occurrenceId: adhoc.id, pendingReportId: null, rule: "adhoc", date: today };
}

/** Rule 2: the member answers today's occurrence; they join its roster if missing (asked now). */
async function joinToday(
  tx: Tx,
  standup: { team_id: number },
  occurrenceId: number,
  userId: number,
  date: string,
  now: Date,
): Promise<ResolvedOccurrence> {
  await tx.$executeRaw`
    INSERT INTO occurrence_members (occurrence_id, user_id, team_id, asked_at, due_at)
    VALUES (${occurrenceId}, ${userId}, ${standup.team_id}, ${now}, ${now})
    ON CONFLICT (occurrence_id, user_id) DO UPDATE SET missed_at = NULL`;
  const mine = await tx.$queryRaw<Array<{ id: number; status: string }>>`
    SELECT id, status::text AS status FROM reports
    WHERE occurrence_id = ${occurrenceId} AND user_id = ${userId} AND status IN ('pending', 'submitted')
    ORDER BY status = 'pending' DESC, id LIMIT 1 FOR UPDATE`;
  const pending = mine[0]?.status === "pending" ? mine[0].id : null;
  const answered = mine[0]?.status === "submitted" ? mine[0].id : null;
  return { occurrenceId, pendingReportId: pending, answeredReportId: answered, rule: "today", date };
}

/** The earliest slot of `date` among `zones` (the scheduled start of that occurrence). */
function earliestSlot(schedule: ReturnType<typeof askingScheduleOf>, date: string, zones: readonly string[], now: Date): Date {
  try {
    return new Date(Math.min(...zones.map((tz) => slotOn(schedule, date, tz).getTime())));
  } catch {
    return now;
  }
}
