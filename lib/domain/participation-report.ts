/**
 * The Participation page (dashboard, issue 16): over a range of local dates, participation per
 * standup, per member (with current streak), per week, the response-time distribution, and the
 * trends of multiple-choice answers (e.g. mood) by week. Standups in scope follow
 * `dashboardStandupWhere`; per-member figures leave anonymous standups out (they would name who
 * answered) while per-standup and weekly totals include them.
 */

import { db, queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { anonymousReportShownSql } from "@/lib/domain/anonymity";
import { InvalidParameterError } from "@/lib/domain/errors";
import {
  bucketByWeek,
  bucketOf,
  currentStreak,
  listDashboardStandups,
  listMemberOccurrences,
  type ParticipationBucket,
  responseMinutes,
  responseTimeDistribution,
  weekStartOf,
} from "@/lib/domain/member-participation";
import { Prisma } from "@/lib/generated/prisma/client";

/** A range of local dates, inclusive, "YYYY-MM-DD"; at most `MAX_RANGE_DAYS` days. */
export type DateRange = { since: string; until: string };

/** Longest range the page computes in one go (a year and a bit). */
export const MAX_RANGE_DAYS = 400;

/** Checks a date range. @throws InvalidParameterError with a message written for people. */
export function checkDateRange(range: DateRange): DateRange {
  const re = /^\d{4}-\d{2}-\d{2}$/;
  const since = new Date(`${range.since}T00:00:00Z`);
  const until = new Date(`${range.until}T00:00:00Z`);
  if (!re.test(range.since) || Number.isNaN(since.getTime())) throw new InvalidParameterError("Enter a valid start date");
  if (!re.test(range.until) || Number.isNaN(until.getTime())) throw new InvalidParameterError("Enter a valid end date");
  if (since > until) throw new InvalidParameterError("The start date must be on or before the end date");
  if ((until.getTime() - since.getTime()) / 86_400_000 > MAX_RANGE_DAYS) {
    throw new InvalidParameterError(`Choose a range of at most ${MAX_RANGE_DAYS} days`);
  }
  return range;
}

/** Weekly counts of each choice of one multiple-choice question. */
export type ChoiceTrend = {
  questionId: number;
  standupId: number;
  standupName: string;
  question: string;
  choices: string[];
  weeks: Array<{ weekStart: string; counts: Record<string, number>; total: number }>;
};

export type ParticipationReport = DateRange & {
  standups: Array<ParticipationBucket & { standupId: number; name: string; occurrences: number }>;
  members: Array<ParticipationBucket & { chatId: string; realname: string; streak: number }>;
  weeks: Array<ParticipationBucket & { weekStart: string }>;
  responseTime: ReturnType<typeof responseTimeDistribution>;
  choiceTrends: ChoiceTrend[];
};

/**
 * Participation over `range` (local dates, inclusive) of the standups the actor sees, or of one
 * of them (`standupId`; an invisible id gives empty figures).
 * @throws InvalidParameterError for a bad range.
 */
export async function getParticipationReport(
  actor: Actor,
  input: DateRange & { standupId?: number; today: string },
  client: Tx = db,
): Promise<ParticipationReport> {
  const { since, until } = checkDateRange(input);
  const standups = (await listDashboardStandups(actor, client)).filter((s) => input.standupId === undefined || s.id === input.standupId);
  const ids = standups.map((s) => s.id);
  const [rows, choiceTrends] = await Promise.all([
    listMemberOccurrences(actor.teamId, { checkinIds: ids, since, until }, client),
    listChoiceTrends(actor, ids, since, until, client),
  ]);
  const named = rows.filter((r) => !r.anonymous);
  const byMember = new Map<string, typeof rows>();
  for (const r of named) byMember.set(r.chatId, [...(byMember.get(r.chatId) ?? []), r]);
  return {
    since,
    until,
    standups: standups
      .map((s) => {
        const mine = rows.filter((r) => r.checkinId === s.id);
        return { standupId: s.id, name: s.name, occurrences: new Set(mine.map((r) => r.occurrenceId)).size, ...bucketOf(mine) };
      })
      .filter((s) => s.occurrences > 0),
    members: [...byMember.values()]
      .map((list) => ({ chatId: list[0].chatId, realname: list[0].realname, ...bucketOf(list), streak: currentStreak(list, input.today) }))
      .sort((a, b) => (a.rate ?? 2) - (b.rate ?? 2) || a.realname.localeCompare(b.realname)),
    weeks: bucketByWeek(rows, since, until),
    responseTime: responseTimeDistribution(responseMinutes(rows)),
    choiceTrends,
  };
}

/**
 * Weekly answer counts of the multiple-choice questions of `checkinIds` (submitted reports); an
 * anonymous report counts only once its run reached the anonymity threshold (issue 45).
 */
async function listChoiceTrends(actor: Actor, checkinIds: number[], since: string, until: string, client: Tx): Promise<ChoiceTrend[]> {
  const teamId = actor.teamId;
  if (checkinIds.length === 0) return [];
  const rows = await queryRows<{
    question_id: number;
    checkin_id: number;
    checkin_name: string;
    question: string;
    choices: string[];
    day: string;
    text: string;
    n: bigint;
  }>(
    Prisma.sql`
    SELECT q.id AS question_id, q.checkin_id, c.name AS checkin_name, q.text AS question, q.choices,
           to_char(COALESCE(o.date, (r.submitted_at AT TIME ZONE c.timezone)::date), 'YYYY-MM-DD') AS day, a.text, count(*) AS n
    FROM answers a
    JOIN questions q ON q.id = a.question_id AND q.answer_type = 'multiple_choice'
    JOIN reports r ON r.id = a.report_id AND r.status = 'submitted'
    JOIN checkins c ON c.id = r.checkin_id
    LEFT JOIN occurrences o ON o.id = r.occurrence_id
    WHERE a.team_id = ${teamId} AND r.checkin_id = ANY(${checkinIds}::int[])
      AND COALESCE(o.date, (r.submitted_at AT TIME ZONE c.timezone)::date) BETWEEN ${since}::date AND ${until}::date
      AND ${anonymousReportShownSql(actor, "r")}
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ORDER BY 1, 6`,
    client,
  );
  const trends = new Map<number, ChoiceTrend>();
  for (const r of rows) {
    let t = trends.get(r.question_id);
    if (!t) {
      t = {
        questionId: r.question_id,
        standupId: r.checkin_id,
        standupName: r.checkin_name,
        question: r.question,
        choices: [...r.choices],
        weeks: bucketByWeek([], since, until).map((w) => ({ weekStart: w.weekStart, counts: {}, total: 0 })),
      };
      trends.set(r.question_id, t);
    }
    const week = t.weeks.find((w) => w.weekStart === weekStartOf(r.day));
    if (!week) continue;
    if (!t.choices.includes(r.text)) t.choices.push(r.text);
    week.counts[r.text] = (week.counts[r.text] ?? 0) + Number(r.n);
    week.total += Number(r.n);
  }
  return [...trends.values()];
}
