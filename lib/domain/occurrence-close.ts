/**
 * Closing occurrences (issue 10): when an occurrence's response window ends (`closes_at`), it is
 * closed once, in one transaction per batch:
 * - standups: every member who was expected (not excused) and has no submitted report is recorded
 *   as missed (`occurrence_members.missed_at`); their pending report stays pending, so a late answer
 *   (lib/domain/occurrence-resolution.ts) can still complete it and clears `missed_at`;
 * - polls: the results are posted to the poll's channel (`poll_results` message);
 * - `closed_at` is set; the hooks `afterStandupClosed` / `afterPollClosed` run in the same
 *   transaction (events and follow-up jobs are written there).
 * Rows are claimed with `FOR UPDATE SKIP LOCKED`, so several app instances never close one twice.
 */

import { type Db, db as defaultDb, type Tx } from "@/lib/db";
import { answersNeeded, DEFAULT_ANONYMITY_THRESHOLD } from "@/lib/domain/anonymity";
import { inBatches, type TickScope } from "@/lib/domain/asking";
import { onPollClosed } from "@/lib/domain/categories";
import { postPollResults } from "@/lib/domain/outbox-polls";
import { currentQuestionsSelect } from "@/lib/domain/standups";
import { onOccurrenceClosed } from "@/lib/domain/summaries";
import { emitOccurrenceEvent } from "@/lib/domain/webhook-events";

const BATCH = 200;

/** A closed occurrence, as the hooks receive it. */
export type ClosedOccurrence = { id: number; teamId: number; checkinId: number; kind: "standup" | "poll"; date: string; closedAt: Date };

/**
 * A standup occurrence just closed (same transaction): emits the `occurrence.closed` webhook event
 * and enqueues the occurrence summary (issue 15).
 */
export async function afterStandupClosed(tx: Tx, occurrence: ClosedOccurrence): Promise<void> {
  await emitOccurrenceEvent(tx, occurrence.teamId, "occurrence.closed", occurrence.id, occurrence.closedAt);
  await onOccurrenceClosed(tx, occurrence.id);
}

/**
 * A poll broadcast just closed and its results were posted (same transaction): emits the
 * `poll.closed` webhook event and enqueues the categorization of its open-ended answers (issue 15).
 */
export async function afterPollClosed(tx: Tx, occurrence: ClosedOccurrence): Promise<void> {
  await emitOccurrenceEvent(tx, occurrence.teamId, "poll.closed", occurrence.id, occurrence.closedAt);
  await onPollClosed(tx, occurrence.id);
}

/**
 * Plain-text results of one poll broadcast: per question, each choice's votes and share. With
 * `answersNeeded` > 0 (anonymous poll below the team's anonymity threshold, lib/domain/anonymity.ts)
 * only the participation line and a note that the results stay hidden.
 */
export function renderPollResultsText(input: {
  pollName: string;
  questions: Array<{ text: string; answerType: string; choices: Array<{ text: string; votes: number }>; responses: number }>;
  responders: number;
  recipients: number;
  answersNeeded?: number;
}): string {
  const lines = [`Poll "${input.pollName}" closed: ${input.responders} of ${input.recipients} voted.`];
  if (input.answersNeeded) {
    lines.push("", `Results are hidden: this anonymous poll needed ${input.answersNeeded} more answer(s) to keep it anonymous.`);
    return lines.join("\n");
  }
  for (const q of input.questions) {
    lines.push("", q.text);
    if (q.answerType === "multiple_choice") {
      const total = q.choices.reduce((n, c) => n + c.votes, 0);
      for (const c of q.choices) lines.push(`- ${c.text}: ${c.votes}${total ? ` (${Math.round((c.votes / total) * 100)}%)` : ""}`);
    } else {
      lines.push(`${q.responses} answer(s)`);
    }
  }
  return lines.join("\n");
}

async function postResults(tx: Tx, occ: ClosedOccurrence, now: Date): Promise<void> {
  const poll = await tx.checkin.findUniqueOrThrow({
    where: { id: occ.checkinId },
    select: {
      name: true,
      is_anonymous: true,
      broadcast_channel_id: true,
      questions: currentQuestionsSelect({ id: true, text: true, answer_type: true, choices: true }),
    },
  });
  if (poll.broadcast_channel_id === null) return;
  const counts = await tx.$queryRaw<Array<{ question_id: number; choice: string | null; n: bigint }>>`
    SELECT question_id, choice, count(*) AS n FROM votes WHERE occurrence_id = ${occ.id} GROUP BY question_id, choice`;
  const totals = await tx.$queryRaw<Array<{ responders: bigint; recipients: bigint; threshold: number }>>`
    SELECT (SELECT count(DISTINCT COALESCE(user_id::text, voter_hash)) FROM votes WHERE occurrence_id = ${occ.id}) AS responders,
           (SELECT count(*) FROM occurrence_members WHERE occurrence_id = ${occ.id}) AS recipients,
           (SELECT anonymity_threshold FROM teams WHERE id = ${occ.teamId}) AS threshold`;
  const responders = Number(totals[0]?.responders ?? 0);
  const text = renderPollResultsText({
    pollName: poll.name,
    responders,
    answersNeeded: answersNeeded(poll.is_anonymous, responders, totals[0]?.threshold ?? DEFAULT_ANONYMITY_THRESHOLD),
    recipients: Number(totals[0]?.recipients ?? 0),
    questions: poll.questions.map((q) => {
      const mine = counts.filter((c) => c.question_id === q.id);
      const voted = mine.filter((c) => c.choice !== null).map((c) => c.choice as string);
      const labels = [...q.choices, ...voted.filter((l) => !q.choices.includes(l))];
      return {
        text: q.text,
        answerType: q.answer_type,
        choices: labels.map((label) => ({ text: label, votes: Number(mine.find((c) => c.choice === label)?.n ?? 0) })),
        responses: mine.reduce((n, c) => n + Number(c.n), 0),
      };
    }),
  });
  await postPollResults(
    tx,
    { teamId: occ.teamId, pollId: occ.checkinId, occurrenceId: occ.id, channelId: poll.broadcast_channel_id, text },
    now,
  );
}

/** Closes up to BATCH occurrences whose window ended at `now`, in one transaction. @returns them. */
export async function closeDueBatch(tx: Tx, now: Date, scope: TickScope = {}): Promise<ClosedOccurrence[]> {
  const teamId = scope.teamId ?? null;
  const rows = await tx.$queryRaw<Array<{ id: number; team_id: number; checkin_id: number; kind: "standup" | "poll"; date: string }>>`
    WITH picked AS (
      SELECT o.id FROM occurrences o
      WHERE o.closed_at IS NULL AND o.closes_at <= ${now} AND (${teamId}::int IS NULL OR o.team_id = ${teamId}::int)
      ORDER BY o.closes_at LIMIT ${BATCH}
      FOR UPDATE OF o SKIP LOCKED
    ), closed AS (
      UPDATE occurrences o SET closed_at = ${now} FROM picked WHERE o.id = picked.id
      RETURNING o.id, o.team_id, o.checkin_id, o.date
    )
    SELECT closed.id, closed.team_id, closed.checkin_id, c.kind::text AS kind, to_char(closed.date, 'YYYY-MM-DD') AS date
    FROM closed JOIN checkins c ON c.id = closed.checkin_id
    ORDER BY closed.id`;
  const closed = rows.map((r) => ({ id: r.id, teamId: r.team_id, checkinId: r.checkin_id, kind: r.kind, date: r.date, closedAt: now }));
  const standupIds = closed.filter((o) => o.kind === "standup").map((o) => o.id);
  if (standupIds.length) {
    await tx.$executeRaw`
      UPDATE occurrence_members om SET missed_at = ${now}
      WHERE om.occurrence_id = ANY(${standupIds}::int[]) AND om.excused IS NULL AND om.missed_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = om.occurrence_id AND r.user_id = om.user_id AND r.status = 'submitted')`;
  }
  for (const occ of closed) {
    if (occ.kind === "poll") {
      await postResults(tx, occ, now);
      await afterPollClosed(tx, occ);
    } else {
      await afterStandupClosed(tx, occ);
    }
  }
  return closed;
}

/** Closes every occurrence whose window ended at `now`, batch after batch. @returns how many. */
export async function closeDueOccurrences(now: Date, client: Db = defaultDb, scope: TickScope = {}): Promise<number> {
  return inBatches(client, BATCH, async (tx) => (await closeDueBatch(tx, now, scope)).length);
}
