/**
 * The edit of a submitted report's answers (PATCH /v2/reports/{id}, spec §4.2), used by
 * `updateReportAnswers` (lib/domain/report-writes.ts) in one of two ways (issue 14 "writes"):
 *
 * - optimistic, without a transaction (no Idempotency-Key, no webhook listening): `readEditContext`
 *   with the actor (the ownership rules of `lockOwnSubmittedReport`, and the row's version
 *   `xmin`), then `writeEdit` with that version as its guard: it locks the report row and writes
 *   only if the row is still that version, else it writes nothing and answers null;
 * - locked, in a transaction: `lockOwnSubmittedReport`, then `readEditContext` (AFTER the lock, so
 *   its snapshot includes whatever an edit that held the lock before us committed), then
 *   `writeEdit` without a guard.
 *
 * Every writer of a submitted report's answers (submission, edit) also updates the report row, so
 * a changed `xmin` means "someone wrote since the read". The statements:
 * - `readEditContext`: the report's standup (name, flags), its author, the questions it may answer
 *   (current ones and archived ones it already answered, with text and position), its stored
 *   answers, its live broadcast message, whether a webhook listens to `report.updated`, `xmin`.
 * - `writeEdit`: one CTE chain: upsert the answers, stamp the report's `updated_at`, re-render the
 *   live broadcast row (lib/domain/outbox-reports.ts `reportBroadcastEditSql`; its delivery job comes from
 *   the `chat_messages` trigger).
 * - `editedView`: the report's v2 view from those rows, as `loadReportView` would read it back.
 */

import { queryRows, type Tx } from "@/lib/db";
import { ownSubmittedReportSql } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { liveReportBroadcastSql, reportBroadcastEditSql } from "@/lib/domain/outbox-reports";
import { answerRuleJsonSql, answersUpsertSql, type ChoiceRule } from "@/lib/domain/report-submission";
import type { ReportView } from "@/lib/domain/reports";
import { Prisma } from "@/lib/generated/prisma/client";

/** A question the report may answer. */
export type EditQuestion = { id: number; text: string; position: number } & ChoiceRule;
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
  /** The report row's version (`xmin` as text): the guard of an optimistic `writeEdit`. */
  version: string;
};

/**
 * Everything the edit renders and answers with. Locked path: statement 2, after the lock, without
 * `own`. Optimistic path: statement 1, with `own`: only a report `lockOwnSubmittedReport` would
 * lock (lib/domain/access.ts `ownSubmittedReportSql`).
 * @returns null when the report id does not exist, or (with `own`) is not one the actor may edit.
 */
export async function readEditContext(tx: Tx, reportId: number, own?: Actor): Promise<EditContext | null> {
  const mine = own ? Prisma.sql`AND ${ownSubmittedReportSql(own)}` : Prisma.empty;
  const [row] = await queryRows<EditContext>(
    Prisma.sql`SELECT r.id, r.checkin_id, r.team_id, r.is_anonymous, r.submitted_at,
        json_build_object('name', c.name, 'is_anonymous', c.is_anonymous, 'is_confidential', c.is_confidential) AS checkin,
        json_build_object('name', COALESCE(NULLIF(u.realname, ''), u.username), 'chat_id', u.chat_id) AS author,
        COALESCE((SELECT json_agg(json_build_object('id', q.id, 'text', q.text, 'position', q.position,
            ${answerRuleJsonSql}) ORDER BY q.id)
          FROM questions q WHERE q.checkin_id = r.checkin_id
            AND (q.archived_at IS NULL OR EXISTS (SELECT 1 FROM answers a WHERE a.question_id = q.id AND a.report_id = r.id))), '[]'::json) AS questions,
        COALESCE((SELECT json_agg(json_build_object('id', a.id, 'question_id', a.question_id, 'text', a.text) ORDER BY a.id)
          FROM answers a WHERE a.team_id = r.team_id AND a.report_id = r.id), '[]'::json) AS answers,
        (${liveReportBroadcastSql("json_build_object('id', m.id, 'ts', m.ts, 'channel_id', m.channel_id)", "r")}) AS message,
        EXISTS (SELECT 1 FROM webhook_endpoints w
          WHERE w.team_id = r.team_id AND w.disabled_at IS NULL AND 'report.updated' = ANY(w.events)) AS listening,
        r.xmin::text AS version
      FROM reports r JOIN checkins c ON c.id = r.checkin_id JOIN users u ON u.id = r.user_id
      WHERE r.id = ${reportId} ${mine}`,
    tx,
  );
  return row ?? null;
}

/** Stands in for a question the report's standup no longer has (sorted last, no choice rule). */
const NO_QUESTION: EditQuestion = {
  id: 0,
  text: "",
  position: Number.MAX_SAFE_INTEGER,
  answer_type: "text",
  choices: [],
  add_own_options: false,
  optional: true,
  scale_min: null,
  scale_max: null,
  scale_labels: [],
};

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
    .map((a) => ({ ...a, question: questions.get(a.question_id) ?? { ...NO_QUESTION, id: a.question_id } }))
    .sort((a, b) => a.question.position - b.question.position || a.question_id - b.question_id);
}

/**
 * The write of an edit: upserts the answers, stamps `updated_at` and re-renders the broadcast
 * (`broadcast` null: the report has no live broadcast). With `guard` (the optimistic path) it
 * first locks the report row (`FOR UPDATE`, waiting for an edit in progress) and writes only if the
 * row is still the version `readEditContext` read; without it the caller already holds the lock.
 * @returns answer id per question id of the answers written, or null when the guard failed (nothing written).
 */
export async function writeEdit(
  tx: Tx,
  input: { teamId: number; reportId: number; answers: ReadonlyArray<{ questionId: number; text: string }>; now: Date },
  broadcast: { messageId: number; text: string } | null,
  guard?: { version: string },
): Promise<Map<number, number> | null> {
  const { teamId, reportId, answers, now } = input;
  const target = guard
    ? Prisma.sql`SELECT r.id FROM reports r WHERE r.id = ${reportId}::int AND r.xmin::text = ${guard.version}::text FOR UPDATE`
    : Prisma.sql`SELECT ${reportId}::int AS id`;
  const msg = broadcast
    ? Prisma.sql`msg AS (${reportBroadcastEditSql(broadcast.messageId, broadcast.text, now, Prisma.sql`EXISTS (SELECT 1 FROM g)`)}),`
    : Prisma.empty;
  const [row] = await queryRows<{ written: boolean; ids: Array<{ id: number; question_id: number }> }>(
    Prisma.sql`WITH g AS MATERIALIZED (${target}),
      rep AS (UPDATE reports SET updated_at = ${now}::timestamptz WHERE id IN (SELECT id FROM g)),
      ${msg}
      ans AS (${answersUpsertSql(teamId, { id: Prisma.sql`g.id`, from: Prisma.sql`g` }, answers, now)})
    SELECT EXISTS (SELECT 1 FROM g) AS written,
      COALESCE((SELECT json_agg(json_build_object('id', ans.id, 'question_id', ans.question_id)) FROM ans), '[]'::json) AS ids`,
    tx,
  );
  if (!row?.written) return null;
  return new Map(row.ids.map((r) => [r.question_id, r.id]));
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
