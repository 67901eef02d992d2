/**
 * Occurrences — one run of a standup or one broadcast of a poll (ARCHITECTURE §3) — and asking
 * their members. The ONE place that opens an occurrence (`openOccurrence`) and asks members
 * (`askMembers`), used by every path that starts a run: the scheduler (lib/domain/scheduler.ts),
 * a manual start (`startStandup` here, POST /v1/standups/{id}/start), a report submitted before
 * the run (lib/domain/report-writes.ts) and a poll's creation (lib/domain/polls.ts).
 *
 * Dates: an occurrence's `date` is the LOCAL date ("YYYY-MM-DD") in the checkin's timezone; every
 * instant (`scheduledAt`, `closesAt`, `now`) is UTC. All functions run inside the caller's
 * transaction (`tx`).
 */

import { type Db, db as defaultDb, type Tx } from "@/lib/db";
import { absenceKindsOn } from "@/lib/domain/absences";
import { editableStandup, standupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { askDueBatch } from "@/lib/domain/asking";
import { type AskingSchedule, askingScheduleOf, askingScheduleSelect, closesAt, dueOn, windowEnd } from "@/lib/domain/asking-times";
import { InvalidParameterError, NotFoundError, UnprocessableError } from "@/lib/domain/errors";
import { resolveUserEmails, resolveUserIds, type UserRef } from "@/lib/domain/members";
import { isValidTimezone, localDateOf } from "@/lib/domain/schedule";
import { emitOccurrenceEvent } from "@/lib/domain/webhook-events";

/** A checkin as occurrences need it: its id and team. */
export type CheckinRef = { id: number; team_id: number };

/** How an occurrence came to be (the `OccurrenceTrigger` enum; `adhoc`: see lib/domain/occurrence-resolution.ts). */
export type OccurrenceTrigger = "schedule" | "manual" | "adhoc";

/** UTC midnight of a local date, the way `occurrences.date` stores it. */
function dayOf(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

/**
 * Returns the occurrence of `checkin` on local `date`, creating it when missing — race-safe with
 * every other path opening the same day (INSERT … ON CONFLICT (team_id, checkin_id, date) DO NOTHING).
 * An existing occurrence that never started gets `started_at = now`; a scheduled or manual opening
 * of a day that only had an ad-hoc occurrence turns it into that run; a later `closesAt` extends
 * the window (and reopens it). Creates no member rows (see `recordMembers`, `askMembers`).
 * @param opts.scheduledAt UTC instant the run was due; `closesAt` when the response window ends.
 * @returns its id and whether this call created it.
 */
export async function openOccurrence(
  tx: Tx,
  checkin: CheckinRef,
  opts: { date: string; scheduledAt: Date; trigger: OccurrenceTrigger; closesAt?: Date | null; now: Date },
): Promise<{ id: number; created: boolean }> {
  const { date, scheduledAt, trigger, now } = opts;
  const closesAt = opts.closesAt ?? null;
  const inserted = await tx.$queryRaw<Array<{ id: number }>>`
    INSERT INTO occurrences (team_id, checkin_id, date, scheduled_at, started_at, closes_at, trigger, created_at)
    VALUES (${checkin.team_id}, ${checkin.id}, ${date}::date, ${scheduledAt}, ${now}, ${closesAt}, ${trigger}::"OccurrenceTrigger", ${now})
    ON CONFLICT (team_id, checkin_id, date) DO NOTHING
    RETURNING id`;
  if (inserted.length) {
    await emitOccurrenceEvent(tx, checkin.team_id, "occurrence.started", inserted[0].id, now);
    return { id: inserted[0].id, created: true };
  }
  const existing = await tx.occurrence.findUniqueOrThrow({
    where: { team_id_checkin_id_date: { team_id: checkin.team_id, checkin_id: checkin.id, date: dayOf(date) } },
    select: { id: true, started_at: true },
  });
  await tx.$executeRaw`
    UPDATE occurrences SET started_at = COALESCE(started_at, ${now}),
      trigger = CASE WHEN trigger = 'adhoc' AND ${trigger} <> 'adhoc' THEN ${trigger}::"OccurrenceTrigger" ELSE trigger END,
      closes_at = CASE WHEN ${closesAt}::timestamptz IS NULL THEN closes_at ELSE GREATEST(closes_at, ${closesAt}::timestamptz) END,
      closed_at = CASE WHEN ${closesAt}::timestamptz > ${now} THEN NULL ELSE closed_at END
    WHERE id = ${existing.id}`;
  return { id: existing.id, created: false };
}

/**
 * Records members in an occurrence's snapshot with the instant each is due to be asked (`dueAt`,
 * UTC); members with an absence covering the date are `excused` (vacation / out_of_office) and are
 * never asked, unless `absentToo`. Members already recorded keep their row (a missing `due_at` is
 * filled in). One statement.
 */
export async function recordMembers(
  tx: Tx,
  input: {
    checkin: CheckinRef;
    occurrence: { id: number; date: string };
    members: Array<{ userId: number; dueAt: Date }>;
    absentToo?: boolean;
  },
): Promise<void> {
  const { checkin, occurrence, members } = input;
  if (members.length === 0) return;
  const absences = input.absentToo
    ? new Map<number, string>()
    : await absenceKindsOn(
        tx,
        members.map((m) => m.userId),
        occurrence.date,
      );
  await tx.$executeRaw`
    INSERT INTO occurrence_members (occurrence_id, user_id, team_id, due_at, excused)
    SELECT ${occurrence.id}, u.user_id, ${checkin.team_id}, u.due_at, u.excused::"ExcuseReason"
    FROM unnest(${members.map((m) => m.userId)}::int[], ${members.map((m) => m.dueAt)}::timestamptz[],
                ${members.map((m) => absences.get(m.userId) ?? null)}::text[]) AS u(user_id, due_at, excused)
    ON CONFLICT (occurrence_id, user_id) DO UPDATE
      SET due_at = COALESCE(occurrence_members.due_at, EXCLUDED.due_at), excused = COALESCE(occurrence_members.excused, EXCLUDED.excused)`;
}

/**
 * Opens (or completes) the occurrence of `slot.date`: the roster is every active member with the
 * instant they are due (`due_at`, see lib/domain/asking-times.ts), members on leave that day
 * `excused` with the absence's kind, and `closes_at` the end of the last member's window (polls:
 * slot + `duration` minutes). An occurrence that already exists (an early answer or a manual start
 * created it) keeps its rows and gains the members it lacks.
 */
export async function openScheduledOccurrence(
  tx: Tx,
  checkin: {
    id: number;
    team_id: number;
    kind: string;
    duration: number | null;
    members: Array<{ user_id: number; user: { timezone: string } }>;
  },
  schedule: AskingSchedule,
  slot: { date: string; at: Date },
  now: Date,
): Promise<{ id: number; created: boolean }> {
  const members = checkin.members.map((m) => ({
    userId: m.user_id,
    timezone: m.user.timezone,
    dueAt: dueOn(schedule, slot.date, m.user.timezone),
  }));
  const closes =
    checkin.kind === "poll"
      ? checkin.duration
        ? new Date(slot.at.getTime() + checkin.duration * 60_000)
        : null
      : closesAt(
          schedule,
          members.map((m) => ({ askedAt: m.dueAt, timezone: m.timezone })),
        );
  const opened = await openOccurrence(tx, checkin, { date: slot.date, scheduledAt: slot.at, trigger: "schedule", closesAt: closes, now });
  await recordMembers(tx, { checkin, occurrence: { id: opened.id, date: slot.date }, members });
  return opened;
}

/** Numeric ids of a checkin's members whose accounts are active, ascending. */
export async function activeMemberIds(tx: Tx, checkinId: number): Promise<number[]> {
  const rows = await tx.checkinMember.findMany({
    where: { checkin_id: checkinId, user: { deactivated_at: null } },
    select: { user_id: true },
    orderBy: { user_id: "asc" },
  });
  return rows.map((m) => m.user_id);
}

/** Input of `askMembers`. */
export type AskMembersInput = {
  checkin: CheckinRef;
  occurrence: { id: number; date: string };
  /** Users to record in the occurrence's member snapshot (and ask). */
  userIds: number[];
  now: Date;
  /** Ask users even when an absence covers the date (explicit targets of a manual start). Default false. */
  absentToo?: boolean;
  /**
   * true (default): ask them now through the asking pass (lib/domain/asking.ts `askDueBatch`: a
   * pending report per standup member who has none, one direct question naming the standup with
   * the link to the answer form); members who have not answered yet are asked again.
   * false: only the snapshot is recorded (a poll broadcast to a channel).
   */
  question?: boolean;
  /**
   * Coalescing (issue 41 item 11, dashboard "Ask now"): members asked or reminded less than this
   * many milliseconds before `now` are not asked again (one message, not two within seconds).
   */
  skipAskedWithinMs?: number;
};

/**
 * Records `userIds` in an occurrence's member snapshot due `now` (`recordMembers`; members on leave
 * that day are excused unless `absentToo`) and, with `question`, asks them at once.
 * @returns the ids of the users asked (with `question`: who got a direct question), ascending.
 */
export async function askMembers(tx: Tx, input: AskMembersInput): Promise<number[]> {
  const { checkin, occurrence, userIds, now } = input;
  if (userIds.length === 0) return [];
  await recordMembers(tx, { checkin, occurrence, members: userIds.map((userId) => ({ userId, dueAt: now })), absentToo: input.absentToo });
  if (input.question === false) {
    const rows = await tx.occurrenceMember.findMany({
      where: { occurrence_id: occurrence.id, user_id: { in: userIds }, excused: null },
      select: { user_id: true },
    });
    return rows.map((r) => r.user_id).sort((x, y) => x - y);
  }
  // Ask (again) whoever has not answered yet; explicit targets are asked even when excused.
  const recent = new Date(now.getTime() - (input.skipAskedWithinMs ?? 0));
  await tx.$executeRaw`
    UPDATE occurrence_members om SET asked_at = NULL, due_at = ${now}, missed_at = NULL,
      excused = CASE WHEN ${input.absentToo === true} THEN NULL ELSE om.excused END
    WHERE om.occurrence_id = ${occurrence.id} AND om.user_id = ANY(${userIds}::int[])
      AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = om.occurrence_id AND r.user_id = om.user_id AND r.status = 'submitted')
      AND NOT (${input.skipAskedWithinMs ?? 0} > 0 AND (
        om.asked_at > ${recent}::timestamptz OR EXISTS (SELECT 1 FROM unnest(om.reminded_at) t WHERE t > ${recent}::timestamptz)))`;
  const asked = await askDueBatch(tx, now, { occurrenceIds: [occurrence.id] });
  const answered = new Set(
    (await tx.report.findMany({ where: { occurrence_id: occurrence.id, status: "submitted" }, select: { user_id: true } })).map(
      (r) => r.user_id,
    ),
  );
  return asked
    .map((r) => r.userId)
    .filter((u) => !answered.has(u))
    .sort((x, y) => x - y);
}

/** Who a manual start asks; both empty → every member. */
export type StartTargets = {
  users?: UserRef[];
  emails?: string[];
  /** See `AskMembersInput.skipAskedWithinMs` (the dashboard's "Ask now" coalesces with a just-sent question or reminder). */
  skipAskedWithinMs?: number;
};

/** What `startStandup` did: the occurrence, its local date and who was asked. */
export type StartResult = { occurrenceId: number; date: string; asked: number[] };

/**
 * Starts a standup now (spec §4.3 POST /v1/standups/{id}/start): opens today's occurrence (local
 * date in the standup's timezone; trigger manual) and asks the targets (`askMembers`).
 * Targets: with neither `users` nor `emails`, every active member (members absent that day are
 * recorded but not asked); otherwise exactly the given members — user ids numeric or chat ids,
 * e-mails matched case-insensitively — asked even when absent.
 * Drafts cannot be started; paused standups can be started by hand. Creator or team admin only.
 * @throws NotFoundError, ForbiddenError, UnprocessableError (draft), UserNotFoundError (unknown
 * user or e-mail), InvalidParameterError (a given user is not a member of the standup).
 */
export async function startStandup(
  actor: Actor,
  id: number,
  targets: StartTargets = {},
  client: Db = defaultDb,
  now: Date = new Date(),
): Promise<StartResult> {
  return client.$transaction(async (tx) => {
    const standup = await editableStandup(tx, actor, id, { lock: true });
    if (standup.state === "draft") throw new UnprocessableError("A draft standup cannot be started");
    const memberIds = await activeMemberIds(tx, id);
    const explicit = Boolean(targets.users?.length || targets.emails?.length);
    let targetIds = memberIds;
    if (explicit) {
      const ids = new Set<number>();
      for (const u of await resolveUserIds(actor, targets.users ?? [], tx)) ids.add(u);
      for (const u of await resolveUserEmails(actor, targets.emails ?? [], tx)) ids.add(u);
      const outsiders = [...ids].filter((u) => !memberIds.includes(u));
      if (outsiders.length) throw new InvalidParameterError(`users: not participants of this standup: ${outsiders.join(", ")}`);
      targetIds = [...ids].sort((a, b) => a - b);
    }
    const date = localDateOf(now, isValidTimezone(standup.timezone) ? standup.timezone : "UTC");
    const schedule = await tx.checkin.findUniqueOrThrow({ where: { id }, select: askingScheduleSelect });
    const closesAt = windowEnd(askingScheduleOf(schedule), now, null);
    const occurrence = await openOccurrence(tx, standup, { date, scheduledAt: now, trigger: "manual", closesAt, now });
    const asked = await askMembers(tx, {
      checkin: standup,
      occurrence: { id: occurrence.id, date },
      userIds: targetIds,
      now,
      absentToo: explicit,
      skipAskedWithinMs: targets.skipAskedWithinMs,
    });
    return { occurrenceId: occurrence.id, date, asked };
  });
}

/**
 * The query of a standup's latest occurrences as the dashboard shows them (member states, message
 * delivery): after checking that the actor may read the standup there (`standupWhere` with drafts
 * and team-wide readers), the `findMany` arguments for its latest `limit` (default 3, 1–10)
 * occurrences, newest first. Add a `select`.
 * @throws NotFoundError when the actor cannot read the standup.
 */
export async function latestOccurrencesQuery(tx: Tx, actor: Actor, input: { standupId: number; limit?: number }) {
  const visible = await tx.checkin.findFirst({
    where: { AND: [{ id: input.standupId }, standupWhere(actor, { drafts: true, teamWide: "readers" })] },
    select: { id: true },
  });
  if (!visible) throw new NotFoundError("Standup");
  return {
    where: { checkin_id: input.standupId },
    orderBy: [{ date: "desc" as const }, { id: "desc" as const }],
    take: Math.min(Math.max(1, input.limit ?? 3), 10),
  };
}
