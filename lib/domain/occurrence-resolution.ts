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
 *    When the member already submitted a report for today's run, the submission edits that report
 *    (`answeredReportId`; issue 41: one report per person and run);
 * 3. else, for a standup with a schedule, an AD-HOC REPORT (issue 41): a report with no
 *    occurrence. It opens no run, appears in no participation figure (no "1/1 · Everyone answered"
 *    run on a day the standup does not run) and changes nobody's participation; it is listed,
 *    broadcast and exported like any report. A MANUAL-ONLY standup (`wait_time` null) has no
 *    scheduled day: an answer when nobody started it today opens today's ad-hoc occurrence
 *    (`trigger = adhoc`, no roster: expected = responded = its authors), as the legacy API's
 *    clients expect; a second answer of the same member that day edits their report.
 *
 * `previewSubmissionOccurrence` tells, without writing, which of these a submission would take:
 * what the answer page says before the person writes.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import {
  activeMembersSelect,
  askingScheduleOf,
  askingScheduleSelect,
  runsOn,
  type ScheduleColumns,
  slotOn,
  slotTimezone,
} from "@/lib/domain/asking-times";
import { isTeamHoliday } from "@/lib/domain/holidays";
import { openOccurrence, openScheduledOccurrence } from "@/lib/domain/occurrences";
import { localDateOf } from "@/lib/domain/schedule";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * What the resolution chose. `pendingReportId` is set for rule 1 (complete that report);
 * `answeredReportId` when the member already submitted a report for today's run (rule 2): the
 * submission edits it instead of adding a second report (issue 41).
 */
export type ResolvedOccurrence = {
  /** null for rule 3 (an ad-hoc report: no occurrence). */
  occurrenceId: number | null;
  pendingReportId: number | null;
  answeredReportId?: number | null;
  rule: "pending" | "today" | "adhoc";
  /** Local date of the occurrence (rule 3: the member's "today"), "YYYY-MM-DD". */
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
  const pending = await answerablePending(tx, standup, user.id, now, { lock: true });
  if (pending) {
    await tx.$executeRaw`UPDATE occurrence_members SET missed_at = NULL WHERE occurrence_id = ${pending.occurrence_id} AND user_id = ${user.id}`;
    return { occurrenceId: pending.occurrence_id, pendingReportId: pending.id, rule: "pending", date: pending.date };
  }
  const { schedule, today, run } = await todaysRun(tx, standup, user, now);
  if (run === "open") {
    const existing = await scheduledOccurrenceOf(tx, standup.id, today);
    if (existing) return joinToday(tx, standup, existing, user.id, today, now);
    const { members } = await tx.checkin.findUniqueOrThrow({ where: { id: standup.id }, select: { members: activeMembersSelect } });
    const zones = members.length ? members.map((m) => m.user.timezone) : [user.timezone];
    const at = earliestSlot(schedule, today, zones, now);
    const opened = await openScheduledOccurrence(tx, { ...standup, members }, schedule, { date: today, at }, now);
    return joinToday(tx, standup, opened.id, user.id, today, now);
  }
  if (schedule.waitTime === null) {
    // Manual only: the answer opens (or joins) today's ad-hoc run of its authors.
    const adhoc = await openOccurrence(tx, standup, { date: today, scheduledAt: now, trigger: "adhoc", now });
    const mine = await tx.$queryRaw<Array<{ id: number }>>`
      SELECT id FROM reports WHERE occurrence_id = ${adhoc.id} AND user_id = ${user.id} AND status = 'submitted'
      ORDER BY id LIMIT 1 FOR UPDATE`;
    return { occurrenceId: adhoc.id, pendingReportId: null, answeredReportId: mine[0]?.id ?? null, rule: "adhoc", date: today };
  }
  return { occurrenceId: null, pendingReportId: null, rule: "adhoc", date: today };
}

/** Which run a submission would complete (`previewSubmissionOccurrence`). */
export type SubmissionPreview =
  /** Rule 1: the member's oldest open run (`date`), answered late when its window closed. */
  | { rule: "pending"; date: string; late: boolean }
  /** Rule 2: today's run; `answered`: the member already answered it, so the submission edits that report. */
  | { rule: "today"; date: string; answered: boolean }
  /** Rule 3: an ad-hoc report (no run, no participation figure) dated `date`. */
  | { rule: "adhoc"; date: string }
  /** Rule 3 of a manual-only standup nobody started today: the answer opens today's run of its authors. */
  | { rule: "manual"; date: string; answered: boolean };

/**
 * The resolution `resolveSubmissionOccurrence` would make for `user` at `now`, read-only: what the
 * answer page tells the person before they write (issue 41).
 */
export async function previewSubmissionOccurrence(
  tx: Tx,
  standup: ResolvableStandup,
  user: { id: number; timezone: string },
  now: Date,
): Promise<SubmissionPreview> {
  const pending = await answerablePending(tx, standup, user.id, now, { lock: false });
  if (pending) return { rule: "pending", date: pending.date, late: pending.closes_at !== null && pending.closes_at <= now };
  const { schedule, today, run } = await todaysRun(tx, standup, user, now);
  if (run === "adhoc" && schedule.waitTime !== null) return { rule: "adhoc", date: today };
  if (run === "adhoc") {
    const answered = await tx.report.count({
      where: {
        checkin_id: standup.id,
        user_id: user.id,
        status: "submitted",
        occurrence: { date: new Date(`${today}T00:00:00Z`), trigger: "adhoc" },
      },
    });
    return { rule: "manual", date: today, answered: answered > 0 };
  }
  const existing = await scheduledOccurrenceOf(tx, standup.id, today);
  const answered = existing ? await tx.report.count({ where: { occurrence_id: existing, user_id: user.id, status: "submitted" } }) : 0;
  return { rule: "today", date: today, answered: answered > 0 };
}

/** Rule 1's candidate: the member's oldest answerable pending report (optionally locked `FOR UPDATE`). */
async function answerablePending(
  tx: Tx,
  standup: ResolvableStandup,
  userId: number,
  now: Date,
  opts: { lock: boolean },
): Promise<{ id: number; occurrence_id: number; date: string; closes_at: Date | null } | null> {
  const lock = opts.lock ? Prisma.sql`FOR UPDATE OF r` : Prisma.empty;
  const rows = await tx.$queryRaw<Array<{ id: number; occurrence_id: number; date: string; closes_at: Date | null }>>`
    SELECT r.id, r.occurrence_id, to_char(o.date, 'YYYY-MM-DD') AS date, o.closes_at
    FROM reports r JOIN occurrences o ON o.id = r.occurrence_id
    WHERE r.checkin_id = ${standup.id} AND r.user_id = ${userId} AND r.status = 'pending'
      AND (o.closes_at IS NULL OR o.closes_at > ${now}
           OR o.closes_at + make_interval(days => ${Math.max(0, standup.late_answer_days)}) > ${now})
    ORDER BY o.date, o.id, r.id
    LIMIT 1
    ${lock}`;
  return rows[0] ?? null;
}

/**
 * The member's local "today" for this standup and whether it has a run: "open" when an occurrence
 * other than an ad-hoc one exists today (schedule or "Ask now"), or the standup runs today on its
 * schedule (automatic asking, a scheduled weekday, not a team holiday); else "adhoc".
 */
async function todaysRun(tx: Tx, standup: ResolvableStandup, user: { timezone: string }, now: Date) {
  const schedule = askingScheduleOf(standup);
  const today = localDateOf(now, slotTimezone(schedule, user.timezone));
  const scheduled =
    (await scheduledOccurrenceOf(tx, standup.id, today)) !== null ||
    (schedule.waitTime !== null && runsOn(today, standup.days) && !(await isTeamHoliday(tx, standup.team_id, today)));
  return { schedule, today, run: scheduled ? ("open" as const) : ("adhoc" as const) };
}

/** Today's occurrence of the standup unless it is an ad-hoc one (written before issue 41), or null. */
async function scheduledOccurrenceOf(tx: Tx, standupId: number, date: string): Promise<number | null> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT id FROM occurrences WHERE checkin_id = ${standupId} AND date = ${date}::date AND trigger <> 'adhoc'`;
  return rows[0]?.id ?? null;
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

/**
 * `previewSubmissionOccurrence` for the actor's own answer to an active standup they are a member
 * of (the dashboard's answer page), at `now` (default: the current time).
 * @returns null when the standup is not one the actor answers (missing, inactive, not a member).
 */
export async function previewMyAnswer(
  actor: Actor,
  standupId: number,
  now = new Date(),
  client: Tx = db,
): Promise<SubmissionPreview | null> {
  const standup = await client.checkin.findFirst({
    where: { id: standupId, team_id: actor.teamId, kind: "standup", state: "active", members: { some: { user_id: actor.userId } } },
    select: { ...askingScheduleSelect, late_answer_days: true },
  });
  const user = await client.user.findFirst({ where: { id: actor.userId, team_id: actor.teamId }, select: { id: true, timezone: true } });
  if (!standup || !user) return null;
  return previewSubmissionOccurrence(client, standup, user, now);
}
