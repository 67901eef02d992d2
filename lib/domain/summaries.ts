/**
 * Occurrence summaries (issue 15, a v2 extension): building and storing the summary of a closed
 * standup occurrence (lib/categorize/summary.ts does the words), and listing them for
 * `GET /v2/standups/{id}/summaries` and the standup page.
 *
 * A summary is made once per occurrence when it closes (`onOccurrenceClosed`, or the periodic
 * sweep for occurrences whose day is over) and replaced if made again. For occurrences of the last
 * few days it is also posted to the standup's channel as the daily digest (a `digest` outbox row,
 * once per occurrence, in the same transaction), which the delivery jobs send like any broadcast.
 */
import type { LlmConfig } from "@/lib/categorize/llm";
import { type SummaryAnswer, type SummarySections, summarize } from "@/lib/categorize/summary";
import { db, type Tx } from "@/lib/db";
import { reportAuthor, standupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { answersNeeded } from "@/lib/domain/anonymity";
import { NotFoundError } from "@/lib/domain/errors";
import { broadcastDigest } from "@/lib/domain/outbox";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** graphile-worker task identifier of a summary run. */
export const SUMMARIZE_TASK = "summarize_occurrence";
export const SUMMARIES_DEFAULT_LIMIT = 25;
/** Summaries of occurrences older than this (days) are stored but not posted as a digest (e.g. demo history). */
export const DIGEST_MAX_AGE_DAYS = 3;

/**
 * The "occurrence closed" hook: enqueues the occurrence's summary at once (one job per occurrence).
 * Call it in the transaction that closes a standup occurrence.
 */
export function onOccurrenceClosed(tx: Tx, occurrenceId: number): Promise<void> {
  return enqueueJob(tx, SUMMARIZE_TASK, { occurrenceId }, { jobKey: `summarize:${occurrenceId}`, maxAttempts: 5 });
}

/**
 * Builds and stores the summary of one standup occurrence.
 * @returns the engine used, or null when the occurrence does not exist, is a poll's, or has no
 *   submitted report (nothing is stored then).
 */
export async function buildOccurrenceSummary(occurrenceId: number, llm: LlmConfig | null): Promise<{ engine: string } | null> {
  const occurrence = await db.occurrence.findUnique({
    where: { id: occurrenceId },
    select: {
      id: true,
      team_id: true,
      checkin_id: true,
      date: true,
      team: { select: { anonymity_threshold: true } },
      checkin: {
        select: {
          kind: true,
          name: true,
          broadcast_channel_id: true,
          is_anonymous: true,
          questions: {
            select: { id: true, text: true, answer_type: true, is_blocker: true },
            orderBy: [{ position: "asc" }, { id: "asc" }],
          },
        },
      },
      members: { select: { asked_at: true } },
      reports: {
        where: { status: "submitted" },
        select: {
          is_anonymous: true,
          user: { select: { chat_id: true, realname: true } },
          answers: { select: { question_id: true, text: true }, orderBy: { question_id: "asc" } },
        },
        orderBy: [{ submitted_at: "asc" }, { id: "asc" }],
      },
    },
  });
  if (occurrence?.checkin.kind !== "standup" || !occurrence.reports.length) return null;
  const questions = new Map(occurrence.checkin.questions.map((q) => [q.id, q]));
  // Anonymity threshold (issue 45, lib/domain/anonymity.ts): anonymous answers of a run fewer than k
  // people answered are left out of its summary.
  const answered = new Set(occurrence.reports.map((r) => r.user.chat_id)).size;
  const held = answersNeeded(true, answered, occurrence.team.anonymity_threshold) > 0;
  const summarized = held ? occurrence.reports.filter((r) => !r.is_anonymous && !occurrence.checkin.is_anonymous) : occurrence.reports;
  const answers: SummaryAnswer[] = summarized.flatMap((r) =>
    r.answers.flatMap((a) => {
      const q = questions.get(a.question_id);
      if (!q) return [];
      return [
        {
          questionId: q.id,
          question: q.text,
          answerType: q.answer_type,
          // The question's blocker flag (set in the standup form, defaulted from its text): the same
          // rule as the Blockers view.
          isBlockerQuestion: q.is_blocker,
          text: a.text,
          // The house rule (anonymity fixed at submission), and never a name in a summary of a standup that is anonymous now.
          author: occurrence.checkin.is_anonymous ? null : reportAuthor(r, { userId: r.user.chat_id, name: r.user.realname }),
        },
      ];
    }),
  );
  const date = occurrence.date.toISOString().slice(0, 10);
  const expected = occurrence.members.filter((m) => m.asked_at !== null).length || occurrence.reports.length;
  const out = await summarize({ standupName: occurrence.checkin.name, date, expected, responded: occurrence.reports.length, answers }, llm);
  const data = { engine: out.engine, sections: out.sections, text: out.text };
  const channelId = occurrence.checkin.broadcast_channel_id;
  const recent = Date.now() - occurrence.date.getTime() <= DIGEST_MAX_AGE_DAYS * 86_400_000;
  await db.$transaction(async (tx) => {
    await tx.occurrenceSummary.upsert({
      where: { team_id_occurrence_id: { team_id: occurrence.team_id, occurrence_id: occurrence.id } },
      create: {
        ...data,
        team_id: occurrence.team_id,
        checkin_id: occurrence.checkin_id,
        occurrence_id: occurrence.id,
        date: occurrence.date,
      },
      update: { ...data, created_at: new Date() },
    });
    // The daily digest broadcast, in the same transaction (outbox); never for old history.
    if (channelId !== null && recent) {
      await broadcastDigest(tx, {
        teamId: occurrence.team_id,
        standupId: occurrence.checkin_id,
        occurrenceId: occurrence.id,
        channelId,
        text: `Daily digest: ${out.text}`,
      });
    }
  });
  return { engine: out.engine };
}

/**
 * Enqueues summaries of standup occurrences that are over (closed, or their date is before today
 * UTC) with submitted reports and no summary yet, newest first. Runs inside a job (queue schema
 * present). @returns the occurrences enqueued.
 */
export async function sweepSummaries(limit = 100): Promise<number> {
  const due = await db.$queryRaw<Array<{ id: number }>>`
    SELECT o.id FROM occurrences o
    JOIN checkins c ON c.id = o.checkin_id AND c.kind = 'standup'
    WHERE (o.closed_at IS NOT NULL OR o.date < (now() AT TIME ZONE 'UTC')::date)
      AND NOT EXISTS (SELECT 1 FROM occurrence_summaries s WHERE s.occurrence_id = o.id)
      AND EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = o.id AND r.status = 'submitted')
      AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = 'summarize:' || o.id)
      AND NOT EXISTS (SELECT 1 FROM job_outbox q WHERE q.job_key = 'summarize:' || o.id)
    ORDER BY o.date DESC, o.id DESC
    LIMIT ${limit}`;
  for (const o of due) await onOccurrenceClosed(db, o.id);
  return due.length;
}

/** A stored summary as the API and the dashboard read it. */
export type OccurrenceSummaryView = {
  id: number;
  standupId: number;
  occurrenceId: number;
  date: string;
  engine: string;
  sections: SummarySections;
  text: string;
  createdAt: Date;
};

export type SummaryListFilters = { limit: number; after?: { date: string; id: number } };

/**
 * Summaries of a standup the actor can see, newest occurrence first (date desc, id desc), keyset
 * paginated; returns up to `limit + 1` rows (the extra one proves has_more). Visibility: the v2
 * standup rule, or with `scope.teamWide: "readers"` (the dashboard, `DASHBOARD_READS`) also every
 * non-confidential standup for admins and managers.
 * @throws NotFoundError when the standup is not visible to the actor.
 */
export async function listStandupSummaries(
  actor: Actor,
  standupId: number,
  filters: SummaryListFilters,
  scope: { teamWide?: "readers" } = {},
): Promise<OccurrenceSummaryView[]> {
  const where = standupWhere(actor, { teamWide: scope.teamWide });
  const standup = await db.checkin.findFirst({ where: { AND: [{ id: standupId }, where] }, select: { id: true } });
  if (!standup) throw new NotFoundError("Standup");
  const after = filters.after;
  const afterDate = after ? new Date(`${after.date}T00:00:00Z`) : undefined;
  const rows = await db.occurrenceSummary.findMany({
    where: {
      checkin_id: standup.id,
      ...(after && afterDate ? { date: { lte: afterDate }, OR: [{ date: { lt: afterDate } }, { id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ date: "desc" }, { id: "desc" }],
    take: filters.limit + 1,
  });
  return rows.map((r) => ({
    id: r.id,
    standupId: r.checkin_id,
    occurrenceId: r.occurrence_id,
    date: r.date.toISOString().slice(0, 10),
    engine: r.engine,
    sections: r.sections as SummarySections,
    text: r.text,
    createdAt: r.created_at,
  }));
}
