/**
 * Participation per occurrence (spec §2.6, §4.2 GET /v2/standups/{id}/participation and
 * GET /v2/polls/{id}/participation).
 *
 * Definitions, per occurrence (one standup run / one poll broadcast):
 * - roster = the occurrence's member snapshot (`occurrence_members`, taken when it ran, so later
 *   membership changes do not rewrite history) ∪ anyone who responded in it (a responder always
 *   counts as expected, so the rate never exceeds 1);
 * - responded = distinct roster users with a submitted report (standups) / with a vote (polls);
 * - standups: excluded.vacation = roster users with an absence (vacation or out-of-office)
 *   covering the occurrence date who did not report; expected = roster − excluded.vacation;
 * - polls: expected = the recipient count = roster (no vacation exclusion: a channel poll reaches
 *   everyone);
 * - participation_rate = responded / expected, rounded to 4 decimals; **0 when expected is 0**.
 *
 * Range: an occurrence date D is in [since, until) when its UTC day overlaps the window, i.e.
 * D >= day(since) and D < ceil-day(until); for plain YYYY-MM-DD bounds this is simply
 * since <= D < until. Order: date desc, id desc; keyset pagination on (date, id).
 * The whole page, the visibility check included, is computed by one SQL statement.
 */
import { db, queryRows, type Tx } from "@/lib/db";
import { type CheckinKind, checkinSql } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** Default page size (spec §8). */
export const PARTICIPATION_DEFAULT_LIMIT = 30;

/** Query of a participation page, already validated. */
export type ParticipationFilters = {
  /** Inclusive lower bound (instant; compared by UTC day). */
  since?: Date;
  /** Exclusive upper bound (instant; compared by UTC day). */
  until?: Date;
  /** Keyset position: the last entry of the previous page. */
  after?: { date: string; id: number };
  /** Page size; `limit + 1` rows are returned so the caller can tell whether more exist. */
  limit: number;
};

/** One occurrence's participation. `date` is the local occurrence date "YYYY-MM-DD". */
export type ParticipationEntry = {
  occurrenceId: number;
  checkinId: number;
  isPoll: boolean;
  date: string;
  expected: number;
  responded: number;
  participationRate: number;
  /** Standups only (polls: 0). */
  excludedVacation: number;
};

const DAY_MS = 86_400_000;

/** "YYYY-MM-DD" of a UTC midnight given in epoch milliseconds (years past 9999 keep all digits, no sign). */
function isoDay(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** "YYYY-MM-DD" of the UTC day containing `d`. */
export function utcDay(d: Date): string {
  return isoDay(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
}

/**
 * "YYYY-MM-DD" of the first UTC midnight at or after `d`. After 9999-12-31 this is
 * "10000-01-01" (not `toISOString`'s "+010000-01-01", which PostgreSQL cannot read as a date).
 */
export function utcCeilDay(d: Date): string {
  const floor = Math.floor(d.getTime() / DAY_MS) * DAY_MS;
  return isoDay(floor === d.getTime() ? floor : floor + DAY_MS);
}

/** responded / expected rounded to 4 decimals; 0 when expected is 0. */
export function participationRate(responded: number, expected: number): number {
  return expected > 0 ? Math.round((responded / expected) * 10_000) / 10_000 : 0;
}

/**
 * Participation counts of one occurrence (the definitions above), before any rate. `date` is the
 * local occurrence date "YYYY-MM-DD"; `excludedVacation` is 0 for polls.
 */
export type OccurrenceCounts = {
  occurrenceId: number;
  checkinId: number;
  date: string;
  expected: number;
  responded: number;
  excludedVacation: number;
};

type CountsRow = {
  id: number;
  checkin_id: number;
  date: string;
  expected: bigint | number;
  responded: bigint | number;
  vacation: bigint | number;
};

/**
 * The options of `countOccurrenceParticipation` / `occurrenceCountsSql`. `live`: count every
 * occurrence from its rows, never from `participation_counts` (the store job counts this way).
 */
type CountsOptions = { where: Prisma.Sql[]; isPoll: boolean; order: "asc" | "desc"; limit?: number; live?: boolean };

/**
 * The participation rule in SQL: a SELECT of the counts of every occurrence of occurrences `o`
 * matching all of `where`, ordered by (date, id) in `order`, at most `limit` of them (all when
 * absent); columns id, checkin_id, date (YYYY-MM-DD), expected, responded, vacation. The only
 * implementation of the definitions above: the API pages and the dashboard aggregates
 * (lib/domain/dashboard.ts) both count through it.
 *
 * A closed occurrence whose counts are stored at its current `counts_version` (`participation_counts`,
 * written by `storeParticipationCounts`; the database's triggers bump the version on every change
 * the counts depend on) takes them from there; the others (open ones, and closed ones changed since
 * their counts were stored) are counted from their rows, in the same statement (issue 14: a year of
 * daily occurrences × 100 members is then 100 index probes instead of 10,000 people counted).
 */
function occurrenceCountsSql(opts: CountsOptions): Prisma.Sql {
  const { isPoll } = opts;
  const direction = opts.order === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const limit = opts.limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${opts.limit}`;
  // Set-based over the page's occurrences, not one index probe per member and flag:
  // responders = distinct (occurrence, user) with a submitted report (standups) or any vote (polls);
  // people = the asked members FULL JOIN the responders, a merge join of two streams sorted by
  // (occurrence, user) (the members' primary key and reports' (occurrence_id, user_id) index read
  // for the page's ids; issue 14: 30% less than hashing both, 365 × 100 members), each person with
  // a responded flag; on leave = people who did not respond with an absence on that date (absences
  // overlapping the page's dates only); the counts are grouped per occurrence before the join to it.
  const responders = isPoll
    ? // who voted: the votes naming their voter and occurrence_members.voted (an anonymous poll's votes name nobody, issue 45)
      Prisma.sql`SELECT v.occurrence_id, v.user_id FROM votes v WHERE v.occurrence_id = ANY(ARRAY(SELECT id FROM live)) AND v.user_id IS NOT NULL
        UNION SELECT om.occurrence_id, om.user_id FROM occurrence_members om WHERE om.occurrence_id = ANY(ARRAY(SELECT id FROM live)) AND om.voted
        ORDER BY 1, 2`
    : Prisma.sql`SELECT DISTINCT r.occurrence_id, r.user_id FROM reports r
        WHERE r.occurrence_id = ANY(ARRAY(SELECT id FROM live)) AND r.status = 'submitted' ORDER BY 1, 2`;
  const onLeave = isPoll
    ? Prisma.sql`SELECT NULL::int AS occurrence_id, NULL::int AS user_id WHERE false`
    : Prisma.sql`SELECT DISTINCT p.occurrence_id, p.user_id FROM people p JOIN live ON live.id = p.occurrence_id
        JOIN page_absences a ON a.user_id = p.user_id AND a.start_date <= live.date AND a.end_date >= live.date
        WHERE NOT p.responded`;
  // The absences overlapping the page's dates, materialized: joined by hash whatever plan is
  // cached (a generic plan otherwise probed the absences index once per non-responder: 2,701
  // probes, +8 ms, over 100 occurrences × 100 members).
  const pageAbsences = isPoll
    ? Prisma.empty
    : Prisma.sql`page_absences AS MATERIALIZED (
      SELECT a.user_id, a.start_date, a.end_date FROM absences a
      WHERE a.end_date >= (SELECT min(date) FROM live) AND a.start_date <= (SELECT max(date) FROM live)
    ),`;
  const stored = opts.live
    ? Prisma.sql`SELECT o.id, o.checkin_id, o.date, NULL::int AS s_expected, NULL::int AS s_responded, NULL::int AS s_vacation
      FROM occurrences o`
    : Prisma.sql`SELECT o.id, o.checkin_id, o.date, pc.expected AS s_expected, pc.responded AS s_responded, pc.vacation AS s_vacation
      FROM occurrences o LEFT JOIN participation_counts pc
        ON pc.team_id = o.team_id AND pc.occurrence_id = o.id AND pc.version = o.counts_version AND o.closed_at IS NOT NULL`;
  return Prisma.sql`
    WITH occ AS MATERIALIZED (
      ${stored}
      WHERE ${Prisma.join(opts.where, " AND ")}
        AND (o.trigger <> 'adhoc' OR EXISTS (SELECT 1 FROM reports ar WHERE ar.occurrence_id = o.id AND ar.status = 'submitted'))
      ORDER BY o.date ${direction}, o.id ${direction}
      ${limit}
    ),
    live AS MATERIALIZED (SELECT occ.id, occ.date FROM occ WHERE occ.s_expected IS NULL),
    people AS MATERIALIZED (
      SELECT coalesce(m.occurrence_id, r.occurrence_id) AS occurrence_id, coalesce(m.user_id, r.user_id) AS user_id,
             r.user_id IS NOT NULL AS responded
      FROM (SELECT om.occurrence_id, om.user_id FROM occurrence_members om
            WHERE om.occurrence_id = ANY(ARRAY(SELECT id FROM live)) ORDER BY 1, 2) m
      FULL JOIN (${responders}) r ON r.occurrence_id = m.occurrence_id AND r.user_id = m.user_id
    ),
    ${pageAbsences}
    on_leave AS MATERIALIZED (${onLeave}),
    per AS (
      SELECT p.occurrence_id,
             count(p.user_id) FILTER (WHERE p.responded OR l.user_id IS NULL) AS expected,
             count(p.user_id) FILTER (WHERE p.responded) AS responded,
             count(l.user_id) AS vacation
      FROM people p LEFT JOIN on_leave l ON l.occurrence_id = p.occurrence_id AND l.user_id = p.user_id
      GROUP BY p.occurrence_id
    )
    SELECT occ.id, occ.checkin_id, to_char(occ.date, 'YYYY-MM-DD') AS date,
           coalesce(occ.s_expected, per.expected, 0) AS expected, coalesce(occ.s_responded, per.responded, 0) AS responded,
           coalesce(occ.s_vacation, per.vacation, 0) AS vacation
    FROM occ LEFT JOIN per ON per.occurrence_id = occ.id
    ORDER BY occ.date ${direction}, occ.id ${direction}`;
}

function toCounts(rows: CountsRow[], isPoll: boolean): OccurrenceCounts[] {
  return rows.map((r) => ({
    occurrenceId: r.id,
    checkinId: r.checkin_id,
    date: r.date,
    expected: Number(r.expected),
    responded: Number(r.responded),
    excludedVacation: isPoll ? 0 : Number(r.vacation),
  }));
}

/**
 * The participation counts of the occurrences matching `where` (see `occurrenceCountsSql`), in
 * one statement. The caller checks visibility.
 */
export async function countOccurrenceParticipation(client: Tx, opts: CountsOptions): Promise<OccurrenceCounts[]> {
  return toCounts(await queryRows<CountsRow>(occurrenceCountsSql(opts), client), opts.isPoll);
}

/**
 * Stores the participation counts of occurrence `occurrenceId` (the `store_participation_counts`
 * job, lib/jobs/tasks.ts) at the `counts_version` they were counted at, when it is closed; an
 * open, missing or listed-nowhere occurrence (an ad-hoc run without a submitted report) stores
 * nothing. One INSERT … SELECT counts and reads the version in one snapshot, so a change that
 * commits meanwhile leaves the row one version behind (never read; that change's job stores it
 * again), and a row never replaces a newer version.
 * @returns whether a row was written.
 */
export async function storeParticipationCounts(occurrenceId: number, client: Tx = db): Promise<boolean> {
  const [occurrence] = await queryRows<{ kind: string }>(
    Prisma.sql`SELECT c.kind::text AS kind FROM occurrences o JOIN checkins c ON c.id = o.checkin_id WHERE o.id = ${occurrenceId}`,
    client,
  );
  if (!occurrence) return false;
  const counts = occurrenceCountsSql({
    where: [Prisma.sql`o.id = ${occurrenceId}`, Prisma.sql`o.closed_at IS NOT NULL`],
    isPoll: occurrence.kind === "poll",
    order: "asc",
    live: true,
  });
  const rows = await queryRows<{ stored: number }>(
    Prisma.sql`INSERT INTO participation_counts AS pc (team_id, occurrence_id, version, expected, responded, vacation)
      SELECT o.team_id, o.id, o.counts_version, k.expected, k.responded, k.vacation
      FROM (${counts}) k JOIN occurrences o ON o.id = k.id
      ON CONFLICT (team_id, occurrence_id) DO UPDATE SET version = EXCLUDED.version, expected = EXCLUDED.expected,
        responded = EXCLUDED.responded, vacation = EXCLUDED.vacation, stored_at = now()
      WHERE pc.version <= EXCLUDED.version
      RETURNING 1 AS stored`,
    client,
  );
  return rows.length > 0;
}

/**
 * The one statement of a participation page: the checkin row gated by the visibility rule
 * (`checkinSql`) LEFT JOINed to the page of counts `p` (columns of `occurrenceCountsSql`), so an
 * invisible checkin gives no row and a visible one without occurrences one row of nulls; `select`
 * picks the output columns from `p` (and `tail` adds LATERAL joins over it), date desc, id desc.
 * The page of `listParticipation`.
 */
export function participationPageSql(
  actor: Actor,
  kind: CheckinKind,
  id: number,
  filters: ParticipationFilters,
  select: Prisma.Sql,
  tail: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  const where: Prisma.Sql[] = [Prisma.sql`o.checkin_id = ${id}`];
  if (filters.since) where.push(Prisma.sql`o.date >= ${utcDay(filters.since)}::date`);
  if (filters.until) where.push(Prisma.sql`o.date < ${utcCeilDay(filters.until)}::date`);
  if (filters.after) {
    const { date, id: afterId } = filters.after;
    where.push(Prisma.sql`o.date <= ${date}::date AND (o.date < ${date}::date OR o.id < ${afterId})`);
  }
  const counts = occurrenceCountsSql({ where, isPoll: kind === "poll", order: "desc", limit: filters.limit + 1 });
  return Prisma.sql`
    SELECT ${select} FROM (SELECT 1 FROM checkins c WHERE c.id = ${id} AND ${checkinSql(actor, kind, "c")}) gate
    LEFT JOIN LATERAL (${counts}) p ON true ${tail}
    ORDER BY p.date DESC NULLS LAST, p.id DESC NULLS LAST`;
}

/**
 * Participation of a standup (visible to the actor: member of a non-confidential standup, or its
 * creator; one entry per occurrence) or of one of the actor's polls (one entry per broadcast),
 * newest first, visibility included, in ONE statement (`participationPageSql`).
 * @returns up to `limit + 1` entries.
 * @throws NotFoundError ("Standup" / "Poll") when the checkin is not visible (spec §4.2).
 */
export async function listParticipation(
  actor: Actor,
  kind: CheckinKind,
  id: number,
  filters: ParticipationFilters,
  client: Tx = db,
): Promise<ParticipationEntry[]> {
  const isPoll = kind === "poll";
  const rows = await queryRows<Omit<CountsRow, "id"> & { id: number | null }>(
    participationPageSql(actor, kind, id, filters, Prisma.sql`p.*`),
    client,
  );
  if (!rows.length) throw new NotFoundError(isPoll ? "Poll" : "Standup");
  const found = rows.filter((r): r is CountsRow => r.id !== null);
  return toCounts(found, isPoll).map((c) => ({ ...c, isPoll, participationRate: participationRate(c.responded, c.expected) }));
}

/**
 * `participationRate(responded, expected)` as a PostgreSQL float8 expression over two integer
 * (int4/int8) SQL expressions, computed with the same IEEE-754 double operations as the JS, so the
 * value is the same double and prints (float8 output, extra_float_digits >= 1: shortest
 * round-trip digits; values k/10000 in [0, 1] never take the exponent form) as `String()` does:
 * - q = r / e and y = q * 10000 are single correctly rounded double operations in both
 *   (float8div/float8mul are C double `/` and `*`; the counts convert exactly below 2^53);
 * - Math.round(y) for y >= 0 is floor(y) + 1 when y - floor(y) >= 0.5, else floor(y); y - floor(y)
 *   is exact (Sterbenz: floor(y) >= y / 2 for y >= 1; floor(y) = 0 for y < 1), so the CASE below is
 *   Math.round exactly (floor(y + 0.5) is not: y + 0.5 can round up, e.g. 0.49999999999999994);
 * - k / 10000 is again one correctly rounded division.
 * The exact integer rounding floor((20000 r + e) / (2 e)) is NOT the same for every input: at
 * exact halves where r / e is not a binary fraction, JS's rounded product can fall just below the
 * half (r = 57, e = 800: y = 712.4999999999999, so JS gives 0.0712 where half-up gives 0.0713).
 * lib/api/v2/participation.test.ts compares both for every 0 <= r <= e <= 400 and e = 800.
 * 0 when e = 0.
 */
export function participationRateSql(responded: Prisma.Sql, expected: Prisma.Sql): Prisma.Sql {
  const y = Prisma.sql`((${responded})::float8 / (${expected})::float8 * 10000::float8)`;
  return Prisma.sql`(CASE WHEN (${expected}) > 0
    THEN (floor(${y}) + CASE WHEN ${y} - floor(${y}) >= 0.5::float8 THEN 1::float8 ELSE 0::float8 END) / 10000::float8
    ELSE 0::float8 END)`;
}
