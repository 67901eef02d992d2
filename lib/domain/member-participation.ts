/**
 * Participation per member and occurrence (dashboard, issue 16): who was asked in each run of a
 * standup, who answered, who was excused and who has not answered (yet). The same rule as the
 * API's counts (lib/domain/participation.ts, spec §2.6): roster = the occurrence's member snapshot
 * ∪ anyone who submitted a report for it; answered = a submitted report; excused = not answered
 * and an absence covers the occurrence date; otherwise missed (or pending while the day is today).
 *
 * Callers pass standup ids they have already checked for visibility (`dashboardStandupWhere`).
 * Rows of anonymous standups carry `anonymous: true`; callers must not show names for them.
 */
import { db, queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { dashboardStandupWhere } from "@/lib/domain/dashboard";
import { Prisma } from "@/lib/generated/prisma/client";

/** A member's status in one occurrence. */
export type MemberStatus = "answered" | "excused" | "missed";

/** One member in one occurrence. Dates are local occurrence dates "YYYY-MM-DD"; instants UTC. */
export type MemberOccurrence = {
  occurrenceId: number;
  checkinId: number;
  date: string;
  userId: number;
  chatId: string;
  realname: string;
  status: MemberStatus;
  /** When the member was asked (their direct question, else the run's start, else its schedule). */
  askedAt: Date;
  /** First submission for this occurrence, null when not answered. */
  submittedAt: Date | null;
  anonymous: boolean;
};

type Row = {
  occurrence_id: number;
  checkin_id: number;
  date: string;
  user_id: number;
  chat_id: string;
  realname: string;
  submitted_at: Date | null;
  asked_at: Date;
  on_leave: boolean;
  anonymous: boolean;
};

/** Options of `listMemberOccurrences`; `since`/`until` are inclusive local dates "YYYY-MM-DD". */
export type MemberOccurrenceFilters = {
  checkinIds: number[];
  since: string;
  until: string;
  /** Only this member (numeric user id). */
  userId?: number;
  /** Keyset: only occurrences after (date, id) in ascending order (for streamed exports). */
  after?: { date: string; occurrenceId: number };
  /** At most this many occurrences (all their members are returned). */
  occurrenceLimit?: number;
};

/**
 * Members × occurrences of the given (visibility-checked) standups, oldest occurrence first, then
 * by member name. One SQL statement.
 */
export async function listMemberOccurrences(teamId: number, f: MemberOccurrenceFilters, client: Tx = db): Promise<MemberOccurrence[]> {
  if (f.checkinIds.length === 0) return [];
  const after = f.after
    ? Prisma.sql`AND (o.date > ${f.after.date}::date OR (o.date = ${f.after.date}::date AND o.id > ${f.after.occurrenceId}))`
    : Prisma.empty;
  const limit = f.occurrenceLimit ? Prisma.sql`LIMIT ${f.occurrenceLimit}` : Prisma.empty;
  const onlyUser = f.userId === undefined ? Prisma.empty : Prisma.sql`WHERE x.user_id = ${f.userId}`;
  const rows = await queryRows<Row>(
    Prisma.sql`
    WITH occ AS (
      SELECT o.id, o.checkin_id, o.date, o.team_id, COALESCE(o.started_at, o.scheduled_at) AS started, c.is_anonymous
      FROM occurrences o JOIN checkins c ON c.id = o.checkin_id
      WHERE o.team_id = ${teamId} AND o.checkin_id = ANY(${f.checkinIds}::int[])
        AND o.date >= ${f.since}::date AND o.date <= ${f.until}::date ${after}
      ORDER BY o.date, o.id
      ${limit}
    )
    SELECT occ.id AS occurrence_id, occ.checkin_id, to_char(occ.date, 'YYYY-MM-DD') AS date, x.user_id,
           us.chat_id, us.realname, rep.submitted_at, COALESCE(om.asked_at, occ.started) AS asked_at,
           EXISTS (SELECT 1 FROM absences a WHERE a.user_id = x.user_id AND a.team_id = occ.team_id
                   AND a.start_date <= occ.date AND a.end_date >= occ.date) AS on_leave,
           occ.is_anonymous AS anonymous
    FROM occ
    CROSS JOIN LATERAL (
      SELECT om.user_id FROM occurrence_members om WHERE om.occurrence_id = occ.id
      UNION
      SELECT r.user_id FROM reports r WHERE r.occurrence_id = occ.id AND r.status = 'submitted'
    ) x
    JOIN users us ON us.id = x.user_id
    LEFT JOIN occurrence_members om ON om.occurrence_id = occ.id AND om.user_id = x.user_id
    LEFT JOIN LATERAL (
      SELECT min(r.submitted_at) AS submitted_at FROM reports r
      WHERE r.occurrence_id = occ.id AND r.user_id = x.user_id AND r.status = 'submitted'
    ) rep ON true
    ${onlyUser}
    ORDER BY occ.date, occ.id, us.realname, x.user_id`,
    client,
  );
  return rows.map((r) => ({
    occurrenceId: r.occurrence_id,
    checkinId: r.checkin_id,
    date: r.date,
    userId: r.user_id,
    chatId: r.chat_id,
    realname: r.realname,
    status: r.submitted_at ? "answered" : r.on_leave ? "excused" : "missed",
    askedAt: r.asked_at,
    submittedAt: r.submitted_at,
    anonymous: r.anonymous,
  }));
}

/** Standups the dashboard shows the actor, with name and timezone (the `dashboardStandupWhere` rule). */
export async function listDashboardStandups(
  actor: Actor,
  client: Tx = db,
): Promise<Array<{ id: number; name: string; timezone: string; isAnonymous: boolean; state: string }>> {
  const rows = await client.checkin.findMany({
    where: dashboardStandupWhere(actor),
    select: { id: true, name: true, timezone: true, is_anonymous: true, state: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => ({ id: r.id, name: r.name, timezone: r.timezone, isAnonymous: r.is_anonymous, state: r.state }));
}

/**
 * Current streak of a member: the number of consecutive answered occurrences counted back from the
 * newest, skipping excused ones; a missed occurrence ends it. An unanswered occurrence on `today`
 * (still open) neither counts nor breaks it. `rows` are one member's, any order.
 */
export function currentStreak(rows: Array<Pick<MemberOccurrence, "date" | "status" | "occurrenceId">>, today: string): number {
  const sorted = [...rows].sort((a, b) => (a.date === b.date ? b.occurrenceId - a.occurrenceId : a.date < b.date ? 1 : -1));
  let streak = 0;
  for (const r of sorted) {
    if (r.status === "answered") streak++;
    else if (r.status === "excused" || r.date >= today) continue;
    else break;
  }
  return streak;
}

/** Longest run of answered occurrences (excused ones skipped, missed ones break it); oldest-first order not required. */
export function longestStreak(rows: Array<Pick<MemberOccurrence, "date" | "status" | "occurrenceId">>): number {
  const sorted = [...rows].sort((a, b) => (a.date === b.date ? a.occurrenceId - b.occurrenceId : a.date < b.date ? -1 : 1));
  let best = 0;
  let run = 0;
  for (const r of sorted) {
    if (r.status === "answered") best = Math.max(best, ++run);
    else if (r.status === "missed") run = 0;
  }
  return best;
}

/** Participation of one bucket (a week, a standup, a member): answered / expected. */
export type ParticipationBucket = { answered: number; excused: number; missed: number; expected: number; rate: number | null };

/** Sums rows into a bucket (expected = answered + missed; excused rows are not expected). */
export function bucketOf(rows: Array<Pick<MemberOccurrence, "status">>): ParticipationBucket {
  const answered = rows.filter((r) => r.status === "answered").length;
  const excused = rows.filter((r) => r.status === "excused").length;
  const missed = rows.length - answered - excused;
  const expected = answered + missed;
  return { answered, excused, missed, expected, rate: expected > 0 ? answered / expected : null };
}

/** Monday (ISO week start) of a "YYYY-MM-DD" date. */
export function weekStartOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/**
 * One bucket per ISO week (Monday start) from the week of `since` to the week of `until`, oldest
 * first; weeks where nothing ran are kept with `rate: null` (a gap in charts, not a zero).
 */
export function bucketByWeek(
  rows: Array<Pick<MemberOccurrence, "status" | "date">>,
  since: string,
  until: string,
): Array<ParticipationBucket & { weekStart: string }> {
  const byWeek = new Map<string, Array<Pick<MemberOccurrence, "status">>>();
  for (let w = weekStartOf(since); w <= until; ) {
    byWeek.set(w, []);
    const d = new Date(`${w}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 7);
    w = d.toISOString().slice(0, 10);
  }
  for (const r of rows) byWeek.get(weekStartOf(r.date))?.push(r);
  return [...byWeek.entries()].map(([weekStart, list]) => ({ weekStart, ...bucketOf(list) }));
}

/** Minutes from being asked to answering, for answered rows (negative gaps, e.g. early answers, count as 0). */
export function responseMinutes(rows: MemberOccurrence[]): number[] {
  return rows.filter((r) => r.submittedAt).map((r) => Math.max(0, ((r.submittedAt as Date).getTime() - r.askedAt.getTime()) / 60_000));
}

/** Response-time distribution buckets (upper bounds in minutes; the last is open-ended). */
export const RESPONSE_TIME_BUCKETS = [
  { label: "< 15 min", max: 15 },
  { label: "15–60 min", max: 60 },
  { label: "1–3 h", max: 180 },
  { label: "3–8 h", max: 480 },
  { label: "> 8 h", max: Number.POSITIVE_INFINITY },
] as const;

/** Counts answers per `RESPONSE_TIME_BUCKETS` bucket, plus the median in minutes (null when none). */
export function responseTimeDistribution(minutes: number[]): { buckets: Array<{ label: string; count: number }>; median: number | null } {
  const buckets = RESPONSE_TIME_BUCKETS.map((b) => ({ label: b.label, count: 0 }));
  for (const m of minutes) buckets[RESPONSE_TIME_BUCKETS.findIndex((b) => m < b.max)].count++;
  const sorted = [...minutes].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
  return { buckets, median };
}
