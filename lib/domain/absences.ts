/**
 * Vacation / out-of-office ranges (local dates, inclusive on both ends) and the team roster of the
 * dashboard's Team page. Every member can read the team's roster and absences; only team admins
 * add or remove ranges. Participation (lib/domain/participation.ts, also behind the dashboard)
 * excludes absent members who did not report, reading absences at query time; a new occurrence's
 * member snapshot records absent members as not asked (`usersAbsentOn`).
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ForbiddenError, InvalidParameterError, NotFoundError, UserNotFoundError } from "@/lib/domain/errors";

/**
 * Of `userIds`, the ones with an absence (vacation or out-of-office) covering `date` (the UTC
 * midnight of an occurrence's local date): they are not asked in that occurrence. One query; none
 * when `userIds` is empty. Shared by every path that starts an occurrence (scheduler, start now,
 * poll broadcast).
 */
export async function usersAbsentOn(client: Tx, userIds: number[], date: Date): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await client.absence.findMany({
    where: { user_id: { in: userIds }, start_date: { lte: date }, end_date: { gte: date } },
    select: { user_id: true },
  });
  return new Set(rows.map((a) => a.user_id));
}

/**
 * Of `userIds`, the kind of absence (vacation / out_of_office) covering local date `date`
 * ("YYYY-MM-DD") for those on leave that day: the members an occurrence excuses. One query.
 */
export async function absenceKindsOn(client: Tx, userIds: number[], date: string): Promise<Map<number, "vacation" | "out_of_office">> {
  if (userIds.length === 0) return new Map();
  const day = new Date(`${date}T00:00:00Z`);
  const rows = await client.absence.findMany({
    where: { user_id: { in: userIds }, start_date: { lte: day }, end_date: { gte: day } },
    orderBy: { id: "asc" },
    select: { user_id: true, kind: true },
  });
  const out = new Map<number, "vacation" | "out_of_office">();
  for (const r of rows) if (!out.has(r.user_id)) out.set(r.user_id, r.kind);
  return out;
}

/**
 * Of the (user, local date "YYYY-MM-DD") pairs, those a calendar-sourced absence (issue 48) covers,
 * as keys `"<userId>/<date>"`: the excused members the views label "excused (calendar)". One query;
 * none for no pairs.
 */
export async function calendarExcusedKeys(client: Tx, pairs: Array<{ userId: number; date: string }>): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const dates = pairs.map((p) => p.date).sort();
  const rows = await client.absence.findMany({
    where: {
      user_id: { in: [...new Set(pairs.map((p) => p.userId))] },
      source: "calendar",
      start_date: { lte: new Date(`${dates.at(-1)}T00:00:00Z`) },
      end_date: { gte: new Date(`${dates[0]}T00:00:00Z`) },
    },
    select: { user_id: true, start_date: true, end_date: true },
  });
  const out = new Set<string>();
  for (const p of pairs) {
    const day = new Date(`${p.date}T00:00:00Z`).getTime();
    if (rows.some((r) => r.user_id === p.userId && r.start_date.getTime() <= day && r.end_date.getTime() >= day))
      out.add(`${p.userId}/${p.date}`);
  }
  return out;
}

export type AbsenceItem = {
  id: number;
  userId: number;
  kind: "vacation" | "out_of_office";
  startDate: string;
  endDate: string;
  note: string | null;
  /** "manual" (typed in) or "calendar" (from one of the person's calendar feeds, issue 48). */
  source: "manual" | "calendar";
};

export type TeamMember = {
  id: number;
  chatId: string;
  realname: string;
  username: string;
  email: string;
  title: string | null;
  timezone: string;
  isAdmin: boolean;
  /** Current and upcoming absences (end date today or later), soonest first. */
  absences: AbsenceItem[];
};

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function toIso(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function parseDate(value: string, field: string): Date {
  if (!DATE_RE.test(value)) throw new InvalidParameterError(`${field}: expected a date YYYY-MM-DD`);
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || toIso(d) !== value) throw new InvalidParameterError(`${field}: not a valid date`);
  return d;
}

/** Active members of the actor's team (by name) with their current and upcoming absences. */
export async function listTeamMembers(actor: Actor, input: { today?: string } = {}, tx: Tx = db): Promise<TeamMember[]> {
  const today = parseDate(input.today ?? toIso(new Date()), "today");
  const users = await tx.user.findMany({
    where: { team_id: actor.teamId, deactivated_at: null },
    orderBy: [{ realname: "asc" }, { id: "asc" }],
    select: {
      id: true,
      chat_id: true,
      realname: true,
      username: true,
      email: true,
      title: true,
      timezone: true,
      is_admin: true,
      absences: {
        where: { end_date: { gte: today } },
        orderBy: [{ start_date: "asc" }, { id: "asc" }],
        select: { id: true, user_id: true, kind: true, start_date: true, end_date: true, note: true, source: true },
      },
    },
  });
  return users.map((u) => ({
    id: u.id,
    chatId: u.chat_id,
    realname: u.realname,
    username: u.username,
    email: u.email,
    title: u.title,
    timezone: u.timezone,
    isAdmin: u.is_admin,
    absences: u.absences.map((a) => ({
      id: a.id,
      userId: a.user_id,
      kind: a.kind,
      startDate: toIso(a.start_date),
      endDate: toIso(a.end_date),
      note: a.note,
      source: a.source === "calendar" ? ("calendar" as const) : ("manual" as const),
    })),
  }));
}

/**
 * Adds a vacation / out-of-office range for a member of the team (admins for anyone; every
 * person for themselves).
 * @throws ForbiddenError (not an admin and not oneself), UserNotFoundError (not an active member of the team),
 *   InvalidParameterError (bad dates, end before start, range over one year, note too long).
 */
export async function addAbsence(
  actor: Actor,
  input: { userId: number; kind: "vacation" | "out_of_office"; startDate: string; endDate: string; note?: string | null },
  tx: Tx = db,
): Promise<{ id: number }> {
  if (!actor.isAdmin && input.userId !== actor.userId) throw new ForbiddenError("Only team admins can add absences of others");
  const start = parseDate(input.startDate, "start_date");
  const end = parseDate(input.endDate, "end_date");
  if (end < start) throw new InvalidParameterError("end_date must not be before start_date");
  if (end.getTime() - start.getTime() > 366 * 86_400_000) throw new InvalidParameterError("An absence can span one year at most");
  if (input.kind !== "vacation" && input.kind !== "out_of_office")
    throw new InvalidParameterError("kind must be vacation or out_of_office");
  const note = input.note?.trim() || null;
  if (note && note.length > 200) throw new InvalidParameterError("note: 200 characters at most");
  const user = await tx.user.findFirst({ where: { id: input.userId, team_id: actor.teamId, deactivated_at: null }, select: { id: true } });
  if (!user) throw new UserNotFoundError([input.userId]);
  const row = await tx.absence.create({
    data: { team_id: actor.teamId, user_id: user.id, kind: input.kind, start_date: start, end_date: end, note },
    select: { id: true },
  });
  return row;
}

/**
 * Removes an absence of the team (admins: any; everyone else: their own).
 * @throws NotFoundError (no such absence in the team, or another person's for a non-admin).
 */
export async function removeAbsence(actor: Actor, input: { absenceId: number }, tx: Tx = db): Promise<void> {
  const r = await tx.absence.deleteMany({
    where: { id: input.absenceId, team_id: actor.teamId, ...(actor.isAdmin ? {} : { user_id: actor.userId }) },
  });
  if (r.count === 0) throw new NotFoundError("Absence");
}
