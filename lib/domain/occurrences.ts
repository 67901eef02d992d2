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
import { queueDirectQuestions } from "@/lib/chat/outbox";
import { type Db, db as defaultDb, type Tx } from "@/lib/db";
import { usersAbsentOn } from "@/lib/domain/absences";
import { editableStandup } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { InvalidParameterError, UnprocessableError } from "@/lib/domain/errors";
import { resolveUserEmails, resolveUserIds, type UserRef } from "@/lib/domain/members";
import { isValidTimezone, localDateOf } from "@/lib/domain/schedule";

/** A checkin as occurrences need it: its id and team. */
export type CheckinRef = { id: number; team_id: number };

/** How an occurrence came to be (the `OccurrenceTrigger` enum). */
export type OccurrenceTrigger = "schedule" | "manual";

/** UTC midnight of a local date, the way `occurrences.date` stores it. */
function dayOf(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

/**
 * Returns the occurrence of `checkin` on local `date`, creating it when missing — race-safe with
 * every other path opening the same day (INSERT … ON CONFLICT (checkin_id, date) DO NOTHING).
 * An existing occurrence that never started gets `started_at = now`. Creates no member rows
 * (see `askMembers`).
 * @param opts.scheduledAt UTC instant the run was due; `closesAt` (polls) when voting closes.
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
    ON CONFLICT (checkin_id, date) DO NOTHING
    RETURNING id`;
  if (inserted.length) return { id: inserted[0].id, created: true };
  const existing = await tx.occurrence.findUniqueOrThrow({
    where: { checkin_id_date: { checkin_id: checkin.id, date: dayOf(date) } },
    select: { id: true, started_at: true },
  });
  if (!existing.started_at) await tx.occurrence.update({ where: { id: existing.id }, data: { started_at: now } });
  return { id: existing.id, created: false };
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
   * true (default): each asked member of a standup gets a pending report (unless they already have
   * a pending or submitted one for this occurrence; submitted means they are not asked again), and
   * every asked member gets one direct question (the first question's text) through the outbox.
   * false: only the snapshot is recorded (a poll broadcast to a channel, a late report).
   */
  question?: boolean;
};

/**
 * Records `userIds` in an occurrence's member snapshot — members with an absence (vacation or
 * out-of-office) covering the date are recorded with `asked_at` null and not asked, unless
 * `absentToo` — and, with `question`, asks them (see `AskMembersInput.question`). Users already
 * in the snapshot keep their row; with `question` their `asked_at` becomes `now`.
 * @returns the ids of the users asked (with `question`: who got a direct question).
 */
export async function askMembers(tx: Tx, input: AskMembersInput): Promise<number[]> {
  const { checkin, occurrence, userIds, now } = input;
  if (userIds.length === 0) return [];
  const absent = input.absentToo ? new Set<number>() : await usersAbsentOn(tx, userIds, dayOf(occurrence.date));
  const asked = userIds.filter((u) => !absent.has(u));
  const recorded = await tx.occurrenceMember.createMany({
    data: userIds.map((user_id) => ({
      occurrence_id: occurrence.id,
      user_id,
      team_id: checkin.team_id,
      asked_at: absent.has(user_id) ? null : now,
    })),
    skipDuplicates: true,
  });
  if (input.question === false || asked.length === 0) return asked;
  if (recorded.count < userIds.length) {
    await tx.occurrenceMember.updateMany({ where: { occurrence_id: occurrence.id, user_id: { in: asked } }, data: { asked_at: now } });
  }

  const full = await tx.checkin.findUniqueOrThrow({
    where: { id: checkin.id },
    select: {
      kind: true,
      name: true,
      questions: { where: { archived_at: null }, orderBy: [{ position: "asc" }, { id: "asc" }], take: 1, select: { text: true } },
    },
  });
  let toAsk = asked;
  const reportByUser = new Map<number, number>();
  if (full.kind === "standup") {
    const existing = await tx.report.findMany({
      where: { occurrence_id: occurrence.id, user_id: { in: asked }, status: { in: ["pending", "submitted"] } },
      select: { id: true, user_id: true, status: true },
    });
    const answered = new Set(existing.filter((r) => r.status === "submitted").map((r) => r.user_id));
    for (const r of existing) if (r.status === "pending") reportByUser.set(r.user_id, r.id);
    toAsk = asked.filter((u) => !answered.has(u));
    const needReport = toAsk.filter((u) => !reportByUser.has(u));
    if (needReport.length) {
      const created = await tx.report.createManyAndReturn({
        data: needReport.map((user_id) => ({
          team_id: checkin.team_id,
          checkin_id: checkin.id,
          occurrence_id: occurrence.id,
          user_id,
          status: "pending" as const,
        })),
        select: { id: true, user_id: true },
      });
      for (const r of created) reportByUser.set(r.user_id, r.id);
    }
  }
  await queueDirectQuestions(
    tx,
    {
      teamId: checkin.team_id,
      checkinId: checkin.id,
      occurrenceId: occurrence.id,
      text: full.questions[0]?.text ?? full.name,
      to: toAsk.map((userId) => ({ userId, reportId: reportByUser.get(userId) ?? null })),
    },
    now,
  );
  return toAsk;
}

/** Who a manual start asks; both empty → every member. */
export type StartTargets = { users?: UserRef[]; emails?: string[] };

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
    const occurrence = await openOccurrence(tx, standup, { date, scheduledAt: now, trigger: "manual", now });
    const asked = await askMembers(tx, {
      checkin: standup,
      occurrence: { id: occurrence.id, date },
      userIds: targetIds,
      now,
      absentToo: explicit,
    });
    return { occurrenceId: occurrence.id, date, asked };
  });
}
