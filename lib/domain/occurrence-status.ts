/**
 * Where each member of a standup's latest occurrences stands (dashboard standup page, issue 10
 * "Asking"): answered, excused (vacation / out of office), missed, reminded, pending (asked or due)
 * — read from the occurrence member snapshot (`occurrence_members`) and the submitted reports.
 * Read-only; visibility is the standup page's (`standupWhere(actor, { drafts, teamWide: "readers" })`).
 */
import { db, type Tx } from "@/lib/db";
import { calendarExcusedKeys } from "@/lib/domain/absences";
import type { Actor } from "@/lib/domain/actor";
import { latestOccurrencesQuery } from "@/lib/domain/occurrences";
import type { OccurrenceTrigger } from "@/lib/generated/prisma/client";

/**
 * One member's state in one occurrence, first match wins: `answered` (a submitted report),
 * `excused` (absent that day), `missed` (the occurrence closed without an answer), `reminded`
 * (asked and reminded at least once), `pending` (asked or due to be asked, no answer yet).
 */
export type MemberAnswerState = "answered" | "excused" | "missed" | "reminded" | "pending";

/** A member of an occurrence with their state; instants are UTC `Date`s, null when unset. */
export type OccurrenceMemberStatus = {
  userId: number;
  name: string;
  state: MemberAnswerState;
  /** When the member is (or was) due to be asked. */
  dueAt: Date | null;
  askedAt: Date | null;
  /** Latest reminder sent, if any; `reminders` counts them. */
  lastRemindedAt: Date | null;
  reminders: number;
  excused: "vacation" | "out_of_office" | null;
  /** Excused by an absence from the member's calendar feed (issue 48): shown as "excused (calendar)". */
  excusedByCalendar: boolean;
  missedAt: Date | null;
  answeredAt: Date | null;
};

/** An occurrence with its members' states; `date` is the local date "YYYY-MM-DD". */
export type OccurrenceStatus = {
  occurrenceId: number;
  date: string;
  closedAt: Date | null;
  trigger: OccurrenceTrigger;
  members: OccurrenceMemberStatus[];
};

/** The state of one member row (see `MemberAnswerState` for the order of precedence). */
export function memberAnswerState(row: {
  answered: boolean;
  excused: string | null;
  missedAt: Date | null;
  remindedAt: readonly Date[];
}): MemberAnswerState {
  if (row.answered) return "answered";
  if (row.excused) return "excused";
  if (row.missedAt) return "missed";
  if (row.remindedAt.length > 0) return "reminded";
  return "pending";
}

/**
 * The standup's latest `limit` (default 3, at most 10) occurrences, newest first, each with its
 * members (by name) and their states. Occurrences without a member snapshot (ad hoc) list no one.
 * @throws NotFoundError when the actor cannot read the standup.
 */
export async function listOccurrenceStatuses(
  actor: Actor,
  input: { standupId: number; limit?: number },
  tx: Tx = db,
): Promise<OccurrenceStatus[]> {
  const occurrences = await tx.occurrence.findMany({
    ...(await latestOccurrencesQuery(tx, actor, input)),
    select: {
      id: true,
      date: true,
      closed_at: true,
      trigger: true,
      members: {
        select: {
          user_id: true,
          due_at: true,
          asked_at: true,
          excused: true,
          reminded_at: true,
          missed_at: true,
          user: { select: { realname: true } },
        },
      },
      reports: { where: { status: "submitted" }, select: { user_id: true, submitted_at: true } },
    },
  });
  const fromCalendar = await calendarExcusedKeys(
    tx,
    occurrences.flatMap((o) =>
      o.members.filter((m) => m.excused).map((m) => ({ userId: m.user_id, date: o.date.toISOString().slice(0, 10) })),
    ),
  );
  return occurrences.map((o) => {
    const date = o.date.toISOString().slice(0, 10);
    const answered = new Map(o.reports.map((r) => [r.user_id, r.submitted_at]));
    const members = o.members
      .map((m): OccurrenceMemberStatus => {
        const reminded = [...m.reminded_at].sort((a, b) => a.getTime() - b.getTime());
        return {
          userId: m.user_id,
          name: m.user.realname,
          state: memberAnswerState({ answered: answered.has(m.user_id), excused: m.excused, missedAt: m.missed_at, remindedAt: reminded }),
          dueAt: m.due_at,
          askedAt: m.asked_at,
          lastRemindedAt: reminded.at(-1) ?? null,
          reminders: reminded.length,
          excused: m.excused,
          excusedByCalendar: m.excused !== null && fromCalendar.has(`${m.user_id}/${date}`),
          missedAt: m.missed_at,
          answeredAt: answered.get(m.user_id) ?? null,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name) || a.userId - b.userId);
    return { occurrenceId: o.id, date, closedAt: o.closed_at, trigger: o.trigger, members };
  });
}
