/**
 * The Participation page (dashboard, issue 16): over a range of local dates, participation per
 * standup, per member (with current streak), per week, the response-time distribution, and the
 * trends of multiple-choice, rating and multi-select answers (e.g. mood) by week. Standups in scope follow
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
import { MULTI_SELECT_SEPARATOR, scalePoints } from "@/lib/domain/question-types";
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

/**
 * Weekly counts of each choice of one multiple-choice, rating or multi-select question (issue 41
 * item 12). Rating: `choices` are the scale's point labels ("4 – Good") and `average` the week's
 * mean rating (null without answers); multi-select: one count per picked choice.
 */
export type ChoiceTrend = {
  questionId: number;
  standupId: number;
  standupName: string;
  question: string;
  answerType: "multiple_choice" | "rating" | "multi_select";
  choices: string[];
  weeks: Array<{ weekStart: string; counts: Record<string, number>; total: number; average: number | null }>;
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
 * Weekly answer counts of the multiple-choice, rating and multi-select questions of `checkinIds`
 * (submitted reports; blank answers of optional questions left out). A rating's series are its
 * scale points (labelled), with the week's average; a multi-select answer counts once per picked
 * choice (the week's `total` is then the number of picks). An anonymous report counts only once
 * its run reached the anonymity threshold (issue 45).
 */
async function listChoiceTrends(actor: Actor, checkinIds: number[], since: string, until: string, client: Tx): Promise<ChoiceTrend[]> {
  const teamId = actor.teamId;
  if (checkinIds.length === 0) return [];
  const rows = await queryRows<{
    question_id: number;
    checkin_id: number;
    checkin_name: string;
    question: string;
    answer_type: ChoiceTrend["answerType"];
    choices: string[];
    scale_min: number | null;
    scale_max: number | null;
    scale_labels: string[] | null;
    day: string;
    text: string;
    n: bigint;
  }>(
    Prisma.sql`
    SELECT q.id AS question_id, q.checkin_id, c.name AS checkin_name, q.text AS question, q.answer_type::text AS answer_type,
           q.choices, q.scale_min, q.scale_max, q.scale_labels,
           to_char(COALESCE(o.date, (r.submitted_at AT TIME ZONE c.timezone)::date), 'YYYY-MM-DD') AS day, btrim(v.text) AS text,
           count(*) AS n
    FROM answers a
    JOIN questions q ON q.id = a.question_id AND q.answer_type IN ('multiple_choice', 'rating', 'multi_select')
    JOIN reports r ON r.id = a.report_id AND r.status = 'submitted'
    JOIN checkins c ON c.id = r.checkin_id
    LEFT JOIN occurrences o ON o.id = r.occurrence_id
    CROSS JOIN LATERAL unnest(CASE WHEN q.answer_type = 'multi_select' THEN string_to_array(a.text, ${MULTI_SELECT_SEPARATOR})
                                   ELSE ARRAY[a.text] END) AS v(text)
    WHERE a.team_id = ${teamId} AND r.checkin_id = ANY(${checkinIds}::int[]) AND btrim(v.text) <> ''
      AND COALESCE(o.date, (r.submitted_at AT TIME ZONE c.timezone)::date) BETWEEN ${since}::date AND ${until}::date
      AND ${anonymousReportShownSql(actor, "r")}
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ORDER BY 1, 10`,
    client,
  );
  const trends = new Map<number, ChoiceTrend & { labels: Map<string, string> }>();
  for (const r of rows) {
    let t = trends.get(r.question_id);
    if (!t) {
      const points = r.answer_type === "rating" ? scalePoints(r) : [];
      t = {
        questionId: r.question_id,
        standupId: r.checkin_id,
        standupName: r.checkin_name,
        question: r.question,
        answerType: r.answer_type,
        choices: r.answer_type === "rating" ? points.map((p) => p.label) : [...r.choices],
        labels: new Map(points.map((p) => [p.value, p.label])),
        weeks: bucketByWeek([], since, until).map((w) => ({ weekStart: w.weekStart, counts: {}, total: 0, average: null })),
      };
      trends.set(r.question_id, t);
    }
    const week = t.weeks.find((w) => w.weekStart === weekStartOf(r.day));
    if (!week) continue;
    const key = t.labels.get(r.text) ?? r.text;
    if (!t.choices.includes(key)) t.choices.push(key);
    week.counts[key] = (week.counts[key] ?? 0) + Number(r.n);
    week.total += Number(r.n);
  }
  return [...trends.values()].map(({ labels, ...t }) => {
    if (t.answerType !== "rating") return t;
    const pointValue = new Map([...labels].map(([value, label]) => [label, Number(value)]));
    for (const w of t.weeks) {
      const sum = Object.entries(w.counts).reduce((acc, [label, n]) => acc + (pointValue.get(label) ?? Number(label)) * n, 0);
      w.average = w.total ? Math.round((sum / w.total) * 100) / 100 : null;
    }
    return t;
  });
}
