/**
 * Dashboard aggregates: participation per occurrence, per-standup summaries, the member × date
 * heatmap and the overview (this week, 30-day trend). Standups in scope always come from
 * `dashboardStandupWhere` (built on lib/domain/access.ts, the rule of the v1 standup reads with
 * `admin`), so no page shows another team's data; the counting is one SQL query per call (no N+1).
 *
 * Participation (spec §2.6) is counted by lib/domain/participation.ts (`countOccurrenceParticipation`,
 * the same rule as the API): for one occurrence, `asked` = the members snapshot ∪ anyone who
 * submitted a report for it; `responded` = those with a submitted report; `excused` = those who did
 * not report and whose vacation/out-of-office range covers the occurrence date; `expected` =
 * asked − excused. The dashboard's rate is responded / expected unrounded, and null (not 0) when
 * nobody was expected. Absences are read at query time, so adding a vacation changes past
 * participation at once.
 */
import { db, type Tx } from "@/lib/db";
import { standupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import { countOccurrenceParticipation } from "@/lib/domain/participation";
import { type FormQuestion, questionTypeSelect, toFormQuestion } from "@/lib/domain/question-types";
import { localDateOf } from "@/lib/domain/schedule";
import { currentQuestionsSelect } from "@/lib/domain/standups";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Standups the dashboard shows to the actor: the ones they take part in or created, and for team
 * admins and managers every standup of the team (drafts and confidential ones only for their creator; archived
 * never) — the rule of `getStandupSettings` (lib/domain/access.ts `standupWhere` with drafts and teamWide).
 */
export function dashboardStandupWhere(actor: Actor): Prisma.CheckinWhereInput {
  return standupWhere(actor, { drafts: true, teamWide: "readers" });
}

export type OccurrenceParticipation = {
  occurrenceId: number;
  checkinId: number;
  date: string;
  asked: number;
  responded: number;
  excused: number;
  expected: number;
  rate: number | null;
};

/** Adds `n` days to a "YYYY-MM-DD" date. */
export function addDaysIso(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Ids of the standups visible to the actor (active and paused). */
export async function visibleStandupIds(actor: Actor, tx: Tx = db): Promise<number[]> {
  const rows = await tx.checkin.findMany({ where: dashboardStandupWhere(actor), select: { id: true } });
  return rows.map((r) => r.id);
}

async function assertVisibleStandup(actor: Actor, checkinId: number, tx: Tx) {
  const row = await tx.checkin.findFirst({
    where: { AND: [{ id: checkinId }, dashboardStandupWhere(actor)] },
    select: { id: true, timezone: true, name: true },
  });
  if (!row) throw new NotFoundError("Standup");
  return row;
}

/** responded / expected (unrounded, for charts); null when nobody was expected. */
function rateOf(responded: number, expected: number): number | null {
  return expected > 0 ? Math.min(1, responded / expected) : null;
}

/**
 * Participation of every occurrence of `checkinIds` (standups) with a date in [since, until]
 * (inclusive), oldest first, counted by `countOccurrenceParticipation` of
 * lib/domain/participation.ts (one query). The ids must already be visibility-checked by the
 * caller of this module.
 */
async function participationRows(
  teamId: number,
  checkinIds: number[],
  since: string,
  until: string,
  tx: Tx,
): Promise<OccurrenceParticipation[]> {
  if (checkinIds.length === 0) return [];
  const counts = await countOccurrenceParticipation(tx, {
    where: [
      Prisma.sql`o.team_id = ${teamId}`,
      Prisma.sql`o.checkin_id = ANY(${checkinIds}::int[])`,
      Prisma.sql`o.date >= ${since}::date AND o.date <= ${until}::date`,
    ],
    isPoll: false,
    order: "asc",
  });
  return counts.map((c) => ({
    occurrenceId: c.occurrenceId,
    checkinId: c.checkinId,
    date: c.date,
    asked: c.expected + c.excludedVacation,
    responded: c.responded,
    excused: c.excludedVacation,
    expected: c.expected,
    rate: rateOf(c.responded, c.expected),
  }));
}

/**
 * Participation per occurrence of one visible standup over the last `days` days (oldest first).
 * @throws NotFoundError when the standup is not visible to the actor.
 */
export async function getStandupParticipation(
  actor: Actor,
  input: { standupId: number; days?: number; today?: string },
  tx: Tx = db,
): Promise<OccurrenceParticipation[]> {
  const standup = await assertVisibleStandup(actor, input.standupId, tx);
  const today = input.today ?? localDateOf(new Date(), standup.timezone);
  return participationRows(actor.teamId, [standup.id], addDaysIso(today, -((input.days ?? 30) - 1)), today, tx);
}

export type ParticipationSummary = { expected: number; responded: number; rate: number | null; occurrences: number };

/** Aggregated participation of each given visible standup over the last `days` days. */
export async function getStandupSummaries(
  actor: Actor,
  input: { standupIds: number[]; days?: number },
  tx: Tx = db,
): Promise<Map<number, ParticipationSummary>> {
  const visible = new Set(await visibleStandupIds(actor, tx));
  const ids = input.standupIds.filter((id) => visible.has(id));
  const today = new Date().toISOString().slice(0, 10);
  const rows = await participationRows(actor.teamId, ids, addDaysIso(today, -((input.days ?? 14) - 1)), addDaysIso(today, 1), tx);
  const out = new Map<number, ParticipationSummary>();
  for (const r of rows) {
    const s = out.get(r.checkinId) ?? { expected: 0, responded: 0, rate: null, occurrences: 0 };
    s.expected += r.expected;
    s.responded += r.responded;
    s.occurrences += 1;
    out.set(r.checkinId, s);
  }
  for (const s of out.values()) s.rate = rateOf(s.responded, s.expected);
  return out;
}

/** Status of one member on one occurrence date in the heatmap. */
export type HeatmapCell = "reported" | "missed" | "excused" | "not_asked" | "no_run";

export type Heatmap = {
  dates: string[];
  members: Array<{ id: number; realname: string; cells: HeatmapCell[] }>;
};

/**
 * Member × date grid of one visible standup over the last `days` days: reported, missed, excused
 * (absence covering the date, no report), not asked (not in that occurrence's snapshot), or no run
 * that day. Rows are the current members plus anyone asked in the window.
 * @throws NotFoundError when the standup is not visible to the actor.
 */
export async function getStandupHeatmap(actor: Actor, input: { standupId: number; days?: number }, tx: Tx = db): Promise<Heatmap> {
  const standup = await assertVisibleStandup(actor, input.standupId, tx);
  const today = localDateOf(new Date(), standup.timezone);
  const since = addDaysIso(today, -((input.days ?? 21) - 1));
  const cells = await tx.$queryRaw<Array<{ date: Date; user_id: number; reported: boolean; excused: boolean }>>`
    SELECT o.date, om.user_id,
      EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = o.id AND r.user_id = om.user_id AND r.status = 'submitted') AS reported,
      EXISTS (SELECT 1 FROM absences a WHERE a.user_id = om.user_id AND a.team_id = o.team_id AND a.start_date <= o.date AND a.end_date >= o.date) AS excused
    FROM occurrences o JOIN occurrence_members om ON om.occurrence_id = o.id
    WHERE o.team_id = ${actor.teamId} AND o.checkin_id = ${standup.id} AND o.date >= ${since}::date AND o.date <= ${today}::date`;
  const members = await tx.checkinMember.findMany({
    where: { checkin_id: standup.id, team_id: actor.teamId },
    select: { user: { select: { id: true, realname: true } } },
  });
  const runDates = [...new Set(cells.map((c) => c.date.toISOString().slice(0, 10)))].sort();
  const userIds = new Set([...members.map((m) => m.user.id), ...cells.map((c) => c.user_id)]);
  const names = new Map(members.map((m) => [m.user.id, m.user.realname]));
  const missing = [...userIds].filter((id) => !names.has(id));
  if (missing.length > 0) {
    const extra = await tx.user.findMany({ where: { id: { in: missing }, team_id: actor.teamId }, select: { id: true, realname: true } });
    for (const u of extra) names.set(u.id, u.realname);
  }
  const byKey = new Map(cells.map((c) => [`${c.user_id}|${c.date.toISOString().slice(0, 10)}`, c]));
  const runSet = new Set(runDates);
  const dates = runDates;
  return {
    dates,
    members: [...userIds]
      .map((id) => ({
        id,
        realname: names.get(id) ?? `User ${id}`,
        cells: dates.map((d): HeatmapCell => {
          if (!runSet.has(d)) return "no_run";
          const c = byKey.get(`${id}|${d}`);
          if (!c) return "not_asked";
          if (c.reported) return "reported";
          return c.excused ? "excused" : "missed";
        }),
      }))
      .sort((a, b) => a.realname.localeCompare(b.realname)),
  };
}

export type TrendPoint = { date: string; expected: number; responded: number; rate: number | null };

export type Overview = {
  today: string;
  weekStart: string;
  standupCount: number;
  /** This week's occurrences (Monday to today), newest first, with the standup name. */
  week: Array<OccurrenceParticipation & { standupName: string }>;
  /** One point per day of the last 30 days (all visible standups together). */
  trend: TrendPoint[];
  weekRate: number | null;
};

/** Overview aggregates for the actor: this week's occurrences and the 30-day participation trend. */
export async function getOverview(actor: Actor, input: { timezone: string }, tx: Tx = db): Promise<Overview> {
  const standups = await tx.checkin.findMany({ where: dashboardStandupWhere(actor), select: { id: true, name: true } });
  const names = new Map(standups.map((s) => [s.id, s.name]));
  const today = localDateOf(new Date(), input.timezone);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const weekStart = addDaysIso(today, -((weekday + 6) % 7));
  const since = addDaysIso(today, -29);
  // biome-ignore lint/complexity/useMathMinMax: ISO date strings, not numbers
  const from = since < weekStart ? since : weekStart;
  const rows = await participationRows(actor.teamId, [...names.keys()], from, today, tx);
  const byDate = new Map<string, TrendPoint>();
  for (let i = 0; i < 30; i++) {
    const d = addDaysIso(since, i);
    byDate.set(d, { date: d, expected: 0, responded: 0, rate: null });
  }
  for (const r of rows) {
    const p = byDate.get(r.date);
    if (!p) continue;
    p.expected += r.expected;
    p.responded += r.responded;
  }
  for (const p of byDate.values()) p.rate = rateOf(p.responded, p.expected);
  const week = rows
    .filter((r) => r.date >= weekStart)
    .map((r) => ({ ...r, standupName: names.get(r.checkinId) ?? "" }))
    .reverse();
  const wExpected = week.reduce((n, r) => n + r.expected, 0);
  const wResponded = week.reduce((n, r) => n + r.responded, 0);
  return {
    today,
    weekStart,
    standupCount: standups.length,
    week,
    trend: [...byDate.values()],
    weekRate: rateOf(wResponded, wExpected),
  };
}

/** True when an occurrence closing at `closesAt` (null: open) still takes answers at `now`, late ones included. */
function isOpenForAnswers(closesAt: Date | null, lateAnswerDays: number, now: Date): boolean {
  return closesAt === null || closesAt.getTime() + Math.max(0, lateAnswerDays) * 86_400_000 > now.getTime();
}

export type MyCheckin = {
  standupId: number;
  name: string;
  timezone: string;
  time: string;
  days: string[];
  isAnonymous: boolean;
  /** Members may post a report anonymously (the standup's setting; false for anonymous standups, whose reports always are). */
  allowAnonymousReports: boolean;
  /** Local date (standup timezone) the next answer belongs to. */
  today: string;
  /** True when a run is scheduled today (local) or the caller has a pending report. */
  dueToday: boolean;
  hasPendingReport: boolean;
  /**
   * The caller's open pending occurrences (unanswered, window or late-answer period not over),
   * oldest first — the order answers complete them in (lib/domain/occurrence-resolution.ts);
   * `date` is the local date "YYYY-MM-DD".
   */
  pendingOccurrences: Array<{ occurrenceId: number; date: string }>;
  questions: FormQuestion[];
  /** The caller's submitted report of today's occurrence, if any. */
  todayReport: { id: number; submittedAt: Date; answers: Array<{ questionId: number; text: string }> } | null;
};

/**
 * The caller's own check-ins: every active standup they are a member of, with its questions,
 * whether a report is pending, and their submitted report of today's occurrence (local date in
 * the standup's timezone) so the dashboard can offer answer / edit / delete.
 */
export async function listMyCheckins(actor: Actor, tx: Tx = db): Promise<MyCheckin[]> {
  const standups = await tx.checkin.findMany({
    where: { team_id: actor.teamId, kind: "standup", state: "active", members: { some: { user_id: actor.userId } } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      timezone: true,
      time: true,
      days: true,
      is_anonymous: true,
      allow_anonymous_reports: true,
      late_answer_days: true,
      questions: currentQuestionsSelect({ id: true, text: true, ...questionTypeSelect }),
      reports: {
        where: {
          user_id: actor.userId,
          status: { in: ["pending", "submitted"] },
          created_at: { gte: new Date(Date.now() - 3 * 86_400_000) },
        },
        orderBy: [{ id: "desc" }],
        select: {
          id: true,
          status: true,
          submitted_at: true,
          occurrence: { select: { id: true, date: true, closes_at: true } },
          answers: { select: { question_id: true, text: true } },
        },
      },
    },
  });
  const now = new Date();
  return standups.map((s) => {
    const today = localDateOf(now, s.timezone);
    const weekday = new Date(`${today}T00:00:00Z`).toLocaleDateString("en-US", { weekday: "short", timeZone: "UTC" });
    const ofToday = s.reports.filter((r) => r.occurrence && r.occurrence.date.toISOString().slice(0, 10) === today);
    const submitted = ofToday.find((r) => r.status === "submitted" && r.submitted_at);
    const pending = s.reports.some((r) => r.status === "pending");
    return {
      standupId: s.id,
      name: s.name,
      timezone: s.timezone,
      time: s.time,
      days: s.days,
      isAnonymous: s.is_anonymous,
      allowAnonymousReports: s.allow_anonymous_reports && !s.is_anonymous,
      today,
      dueToday: s.days.includes(weekday) || pending,
      hasPendingReport: pending,
      pendingOccurrences: s.reports
        .flatMap((r) =>
          r.status === "pending" && r.occurrence && isOpenForAnswers(r.occurrence.closes_at, s.late_answer_days, now)
            ? [{ occurrenceId: r.occurrence.id, date: r.occurrence.date.toISOString().slice(0, 10) }]
            : [],
        )
        .sort((a, b) => a.date.localeCompare(b.date) || a.occurrenceId - b.occurrenceId),
      questions: s.questions.map(toFormQuestion),
      todayReport: submitted
        ? {
            id: submitted.id,
            submittedAt: submitted.submitted_at as Date,
            answers: submitted.answers.map((a) => ({ questionId: a.question_id, text: a.text })),
          }
        : null,
    };
  });
}

/** Whether the standup (of the actor's team) lets members post a report anonymously (its `allow_anonymous_reports`). */
export async function allowsAnonymousReports(actor: Actor, standupId: number, tx: Tx = db): Promise<boolean> {
  return (await tx.checkin.count({ where: { id: standupId, team_id: actor.teamId, allow_anonymous_reports: true } })) > 0;
}
