/**
 * The edit of a submitted report's answers (PATCH /v2/reports/{id}, spec §4.2) in three statements
 * after the row lock (issue 14 "writes"), used by `updateReportAnswers` (lib/domain/report-writes.ts):
 *
 * - `readEditContext` runs AFTER `lockOwnSubmittedReport`, so its snapshot includes whatever an
 *   edit that held the lock before us committed: the report's standup (name, flags), its author,
 *   the questions it may answer (current ones and archived ones it already answered, with text and
 *   position), its stored answers, its live broadcast message and whether a webhook listens to
 *   `report.updated`.
 * - `writeEdit`: one CTE chain: upsert the answers, stamp the report's `updated_at`, re-render the
 *   live broadcast row (lib/chat/outbox.ts `reportBroadcastEditSql`; its delivery job comes from
 *   the `chat_messages` trigger).
 * - `editedView`: the report's v2 view from those rows, as `loadReportView` would read it back.
 */
import { reportBroadcastEditSql } from "@/lib/chat/outbox";
import { queryRows, type Tx } from "@/lib/db";
import { answersUpsertSql } from "@/lib/domain/report-submission";
import type { ReportView } from "@/lib/domain/reports";
import { Prisma } from "@/lib/generated/prisma/client";

/** A question the report may answer. */
export type EditQuestion = { id: number; text: string; position: number };
/** A stored answer of the report. */
export type StoredAnswer = { id: number; question_id: number; text: string };

/** What `readEditContext` returns for a locked, submitted report. */
export type EditContext = {
  id: number;
  checkin_id: number;
  team_id: number;
  is_anonymous: boolean;
  submitted_at: Date;
  checkin: { name: string; is_anonymous: boolean; is_confidential: boolean };
  author: { name: string; chat_id: string };
  questions: EditQuestion[];
  answers: StoredAnswer[];
  /** The live (not deleted) broadcast, newest first; null when never broadcast or removed. */
  message: { id: number; ts: string; channel_id: number | null } | null;
  listening: boolean;
};

/**
 * Statement 2 of an edit (after the lock): everything the edit renders and answers with.
 * @returns null when the report id does not exist (the caller locked it, so it does).
 */
export async function readEditContext(tx: Tx, reportId: number): Promise<EditContext | null> {
  const [row] = await queryRows<EditContext>(
    Prisma.sql`SELECT r.id, r.checkin_id, r.team_id, r.is_anonymous, r.submitted_at,
        json_build_object('name', c.name, 'is_anonymous', c.is_anonymous, 'is_confidential', c.is_confidential) AS checkin,
        json_build_object('name', COALESCE(NULLIF(u.realname, ''), u.username), 'chat_id', u.chat_id) AS author,
        COALESCE((SELECT json_agg(json_build_object('id', q.id, 'text', q.text, 'position', q.position) ORDER BY q.id)
          FROM questions q WHERE q.checkin_id = r.checkin_id
            AND (q.archived_at IS NULL OR EXISTS (SELECT 1 FROM answers a WHERE a.question_id = q.id AND a.report_id = r.id))), '[]'::json) AS questions,
        COALESCE((SELECT json_agg(json_build_object('id', a.id, 'question_id', a.question_id, 'text', a.text) ORDER BY a.id)
          FROM answers a WHERE a.team_id = r.team_id AND a.report_id = r.id), '[]'::json) AS answers,
        (SELECT json_build_object('id', m.id, 'ts', m.ts, 'channel_id', m.channel_id) FROM chat_messages m
          WHERE m.report_id = r.id AND m.kind = 'report' AND m.deleted_at IS NULL ORDER BY m.id DESC LIMIT 1) AS message,
        EXISTS (SELECT 1 FROM webhook_endpoints w
          WHERE w.team_id = r.team_id AND w.disabled_at IS NULL AND 'report.updated' = ANY(w.events)) AS listening
      FROM reports r JOIN checkins c ON c.id = r.checkin_id JOIN users u ON u.id = r.user_id
      WHERE r.id = ${reportId}`,
    tx,
  );
  return row ?? null;
}

/**
 * The report's answers after the edit, in question order (position, then question id): stored
 * ones with the new texts merged in. An answer the edit adds has id 0 until `editedView` gives it
 * the id the write returned.
 */
export function mergedAnswers(
  ctx: EditContext,
  edits: ReadonlyArray<{ questionId: number; text: string }>,
): Array<StoredAnswer & { question: EditQuestion }> {
  const byQuestion = new Map(ctx.answers.map((a) => [a.question_id, { ...a }]));
  for (const e of edits)
    byQuestion.set(e.questionId, { id: byQuestion.get(e.questionId)?.id ?? 0, question_id: e.questionId, text: e.text });
  const questions = new Map(ctx.questions.map((q) => [q.id, q]));
  return [...byQuestion.values()]
    .map((a) => ({ ...a, question: questions.get(a.question_id) ?? { id: a.question_id, text: "", position: Number.MAX_SAFE_INTEGER } }))
    .sort((a, b) => a.question.position - b.question.position || a.question_id - b.question_id);
}

/**
 * Statement 3 of an edit: upserts the answers, stamps `updated_at` and re-renders the broadcast
 * (`messageText` null: the report has no live broadcast).
 * @returns answer id per question id of the answers written.
 */
export async function writeEdit(
  tx: Tx,
  input: { teamId: number; reportId: number; answers: ReadonlyArray<{ questionId: number; text: string }>; now: Date },
  broadcast: { messageId: number; text: string } | null,
): Promise<Map<number, number>> {
  const { teamId, reportId, answers, now } = input;
  const msg = broadcast ? Prisma.sql`, msg AS (${reportBroadcastEditSql(broadcast.messageId, broadcast.text, now)})` : Prisma.empty;
  const rows = await queryRows<{ id: number; question_id: number }>(
    Prisma.sql`WITH rep AS (UPDATE reports SET updated_at = ${now}::timestamptz WHERE id = ${reportId}::int)${msg}
      ${answersUpsertSql(teamId, { id: Prisma.sql`${reportId}::int` }, answers, now)}`,
    tx,
  );
  return new Map(rows.map((r) => [r.question_id, r.id]));
}

/**
 * The edited report's v2 view (answers included), as `loadReportView` reads it back; `ids`: the
 * answer id per question id that `writeEdit` returned.
 */
export function editedView(ctx: EditContext, answers: ReturnType<typeof mergedAnswers>, ids: ReadonlyMap<number, number>): ReportView {
  return {
    id: ctx.id,
    checkin_id: ctx.checkin_id,
    submitted_at: new Date(ctx.submitted_at),
    is_anonymous: ctx.is_anonymous,
    checkin: ctx.checkin,
    user: { chat_id: ctx.author.chat_id },
    answers: answers.map((a) => ({
      id: ids.get(a.question_id) ?? a.id,
      question_id: a.question_id,
      text: a.text,
      question: { text: a.question.text },
    })),
  };
}
