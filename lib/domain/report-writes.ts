/**
 * Report writes shared by v2 (POST/PATCH/DELETE /v2/reports, spec §4.2) and v1 (POST /v1/reports/,
 * spec §4.3): submit, edit answers, discard. Each runs in one transaction (the caller's when
 * passed) together with its broadcast outbox row (lib/domain/outbox-reports.ts).
 *
 * Occurrence rule (issue 10): lib/domain/occurrence-resolution.ts — the member's oldest answerable
 * pending report, else today's occurrence when the standup runs today, else an ad-hoc report
 * (no occurrence, in no participation figure). A second submission for a run the member already answered edits that
 * report (same id, broadcast edited; issue 41). Answers are checked and stored per question type
 * (lib/domain/question-types.ts: multiple choice, rating, number, multi-select, optional; 400
 * INVALID_PARAMETER naming the question).
 */
import { db, inTransaction, type Tx } from "@/lib/db";
import { lockOwnSubmittedReport, reportAuthor } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { settleAnonymousReport } from "@/lib/domain/anonymous-release";
import { MAX_DB_ID } from "@/lib/domain/constants";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { resolveSubmissionOccurrence } from "@/lib/domain/occurrence-resolution";
import { broadcastReport, removeReportBroadcast, renderReportText } from "@/lib/domain/outbox-reports";
import { normalizeAnswers } from "@/lib/domain/question-types";
import { type EditContext, editedView, mergedAnswers, readEditContext, writeEdit } from "@/lib/domain/report-edit";
import { emitReportEvent, emitReportViewEvent } from "@/lib/domain/report-events";
import { reportViewPage } from "@/lib/domain/report-pages";
import {
  answeredTarget,
  answersUpsertSql,
  fastTarget,
  readSubmissionContext,
  type SubmissionAuthor,
  type SubmissionContext,
  type SubmissionWrite,
  type SubmissionWritten,
  submittedView,
  writeSubmission,
} from "@/lib/domain/report-submission";
import { asReportView, type ReportView } from "@/lib/domain/reports";
import { Prisma } from "@/lib/generated/prisma/client";

/** One answer: the question's id and the plain-text answer. */
export type AnswerInput = { questionId: number; text: string };

/** Input of `submitReport`. */
export type SubmitReportInput = {
  standupId: number;
  answers: AnswerInput[];
  /** Report-level anonymity; the stored flag is standup.is_anonymous || this. */
  isAnonymous?: boolean;
  /** v1 rule: the standup's creator may submit without being a member. Default false (v2). */
  allowOwner?: boolean;
  /** Default true (v2): every required (not optional) active question answered. false: any non-empty subset. */
  requireAllQuestions?: boolean;
};

/** What a submission produced. `chatTs` is the broadcast's message id (null: no channel). */
export type SubmittedReport = {
  reportId: number;
  standupId: number;
  /** null for an ad-hoc report (no run: the standup does not run today; issue 41). */
  occurrenceId: number | null;
  submittedAt: Date;
  chatTs: string | null;
  channelId: number | null;
  /** The report as `loadReportView` reads it (answers included): what POST /v2/reports answers. */
  view: ReportView;
};

/** Checks answers against the allowed question ids. @throws InvalidParameterError */
function checkAnswers(answers: readonly AnswerInput[], allowed: ReadonlySet<number>): void {
  if (!Array.isArray(answers) || answers.length === 0) throw new InvalidParameterError("answers: at least one answer is required");
  const seen = new Set<number>();
  for (const a of answers) {
    if (!Number.isInteger(a.questionId) || !allowed.has(a.questionId)) {
      throw new InvalidParameterError(`answers: question_id ${String(a.questionId)} does not belong to this standup`);
    }
    if (seen.has(a.questionId)) throw new InvalidParameterError(`answers: question_id ${a.questionId} is answered more than once`);
    if (typeof a.text !== "string") throw new InvalidParameterError(`answers: text of question_id ${a.questionId} must be a string`);
    seen.add(a.questionId);
  }
}

/** Inserts or replaces answers of a report in one statement (`answersUpsertSql`). */
async function upsertAnswers(tx: Tx, teamId: number, reportId: number, answers: readonly AnswerInput[], now: Date): Promise<void> {
  await tx.$executeRaw(answersUpsertSql(teamId, { id: Prisma.sql`${reportId}::int` }, answers, now));
}

/**
 * Submits the actor's report to an active standup and broadcasts it to the standup's channel.
 * Usually two statements (lib/domain/report-submission.ts): a read that settles the occurrence
 * rule, then one CTE chain for the report, answers and outbox row; opening an occurrence (or a
 * concurrent change) goes through the resolution module (`submitResolved`).
 *
 * Without a caller's `tx`, when the write is that one statement and nothing else must commit with
 * it (rule 1's pending report or an ad-hoc report, and no webhook listens to
 * `report.submitted`), both statements run outside a transaction: a single statement is atomic on
 * its own, and the read takes no lock in a transaction either (its guards are re-checked by the
 * write). Every other case runs in one transaction, the caller's when passed.
 * @returns ids, submission time (UTC), the broadcast's `chatTs` and the report's v2 view.
 * @throws NotFoundError when the standup is missing, of another team, a poll, not active (paused,
 *   draft, archived) or the actor is not a member (nor the owner with `allowOwner`);
 *   InvalidParameterError for unknown/duplicate question ids or a wrong answer count.
 */
export async function submitReport(actor: Actor, input: SubmitReportInput, tx?: Tx): Promise<SubmittedReport> {
  // An id outside the id column's range (PostgreSQL integer) names no standup.
  if (!Number.isInteger(input.standupId) || input.standupId < 1 || input.standupId > MAX_DB_ID) throw new NotFoundError("Standup");
  if (tx) {
    const plan = await planSubmission(tx, actor, input, new Date());
    return plan.answered ? resubmit(actor, plan.input, plan.ctx, plan.answered, tx) : submitIn(tx, actor, plan.input, plan);
  }
  const plan = await planSubmission(db, actor, input, new Date());
  if (plan.answered) return resubmit(actor, plan.input, plan.ctx, plan.answered);
  // An anonymous report is settled after its write (held below k, lib/domain/anonymous-release.ts): in one transaction.
  if (plan.write && plan.write.target.rule !== "today" && !plan.ctx.listening && !plan.isAnonymous && !plan.ctx.recent_anonymous) {
    const written = await writeSubmission(db, plan.write);
    if (written) return fastResult(plan, plan.write, written);
    // The guard failed (a concurrent submission changed the member's reports): resolve, atomically.
    return inTransaction(undefined, (t) => submitIn(t, actor, plan.input, { ...plan, write: null }));
  }
  return inTransaction(undefined, (t) => submitIn(t, actor, plan.input, plan));
}

/**
 * What statement 1 settled: the context, the author, the stored anonymity and, when the rule is
 * settled, the write — or `answered`: the member's submitted report of today's run, which this
 * submission edits (`resubmit`).
 */
type SubmissionPlan = {
  /** The input with the answers' canonical texts. */
  input: SubmitReportInput;
  ctx: SubmissionContext;
  author: SubmissionAuthor;
  isAnonymous: boolean;
  write: SubmissionWrite | null;
  answered: { occurrenceId: number; reportId: number } | null;
};

/**
 * Statement 1 and the checks on it (through `client`: a transaction or the shared client).
 * @throws NotFoundError, InvalidParameterError as `submitReport` documents.
 */
async function planSubmission(client: Tx, actor: Actor, input: SubmitReportInput, now: Date): Promise<SubmissionPlan> {
  const ctx = await readSubmissionContext(client, actor, input.standupId, now);
  if (!ctx) throw new NotFoundError("Standup");
  const isMember = ctx.is_member || (input.allowOwner === true && ctx.owner_id === actor.userId);
  if (!isMember) throw new NotFoundError("Standup");

  checkAnswers(input.answers, new Set(ctx.questions.map((q) => q.id)));
  // Canonical texts (lib/domain/question-types.ts); every later step writes these.
  const answers = normalizeAnswers(input.answers, ctx.questions, input.requireAllQuestions !== false);

  const author = ctx.author;
  if (author === null) throw new NotFoundError("User");
  const isAnonymous = ctx.is_anonymous || input.isAnonymous === true;
  const answered = answeredTarget(ctx, author.timezone, now);
  const target = answered ? null : fastTarget(ctx, author.timezone, now);
  const write: SubmissionWrite | null = target && {
    target,
    teamId: actor.teamId,
    standupId: ctx.id,
    userId: actor.userId,
    answers,
    anonymousRequested: input.isAnonymous === true,
    isAnonymous,
    broadcast:
      ctx.broadcast_channel_id === null
        ? null
        : { channelId: ctx.broadcast_channel_id, text: broadcastText(ctx, author, answers, isAnonymous) },
    now,
  };
  return { input: { ...input, answers }, ctx, author, isAnonymous, write, answered };
}

/**
 * The rest of a submission inside transaction `t`: statement 2 (the CTE chain) when the plan holds
 * a write and its guard holds, else the resolution module; then the `report.submitted` event.
 */
async function submitIn(t: Tx, actor: Actor, input: SubmitReportInput, plan: SubmissionPlan): Promise<SubmittedReport> {
  const { ctx, author, write } = plan;
  if (write) {
    const written = await writeSubmission(t, write);
    if (written) {
      const result = fastResult(plan, write, written);
      if (write.isAnonymous) {
        await settleAnonymousReport(t, written.reportId, write.now);
        // As stored: coarse times (issue 45), not the writer's clock.
        const view = await loadReportView(written.reportId, t);
        return { ...result, submittedAt: view.submitted_at, view };
      }
      // A named answer may bring a run with held anonymous reports to k: they go out now.
      if (ctx.recent_anonymous) await settleAnonymousReport(t, written.reportId, write.now);
      if (ctx.listening) await emitReportViewEvent(t, "report.submitted", actor.teamId, result.view);
      return result;
    }
    // The guard failed (a concurrent submission or asking changed the member's reports): resolve.
  }
  const now = write?.now ?? new Date();
  return submitResolved(t, actor, input, ctx, { id: actor.userId, timezone: author.timezone }, plan.isAnonymous, now);
}

/** The result of a submission statement 2 wrote, built from its rows (no read-back). */
function fastResult(plan: SubmissionPlan, write: SubmissionWrite, written: SubmissionWritten): SubmittedReport {
  return {
    reportId: written.reportId,
    standupId: plan.ctx.id,
    occurrenceId: write.target.occurrenceId,
    submittedAt: write.now,
    chatTs: written.message?.ts ?? null,
    channelId: written.message?.channel_id ?? null,
    view: submittedView(plan.ctx, plan.author, write, written),
  };
}

/** The broadcast text of a report made of `answers` only (current questions, in question order). */
function broadcastText(ctx: SubmissionContext, author: SubmissionAuthor, answers: readonly AnswerInput[], isAnonymous: boolean): string {
  const questions = new Map(ctx.questions.map((q) => [q.id, q]));
  const ordered = answers
    .map((a) => ({ q: questions.get(a.questionId)!, text: a.text }))
    .sort((a, b) => a.q.position - b.q.position || a.q.id - b.q.id);
  return renderReportText({
    standupName: ctx.name,
    authorName: isAnonymous ? null : author.name,
    answers: ordered.map((a) => ({ question: a.q.text, answer: a.text })),
  });
}

/**
 * The submission when an occurrence must be opened or the report is unusual (see `fastTarget`):
 * the resolution module (which locks the chosen report), then one statement per write.
 */
async function submitResolved(
  t: Tx,
  actor: Actor,
  input: SubmitReportInput,
  standup: SubmissionContext,
  author: { id: number; timezone: string },
  isAnonymous: boolean,
  now: Date,
): Promise<SubmittedReport> {
  const occurrence = await resolveSubmissionOccurrence(t, standup, author, now);
  if (occurrence.answeredReportId && occurrence.occurrenceId !== null) {
    return resubmit(actor, input, standup, { occurrenceId: occurrence.occurrenceId, reportId: occurrence.answeredReportId }, t);
  }
  let reportId: number;
  if (occurrence.pendingReportId !== null) {
    reportId = occurrence.pendingReportId;
    await t.$executeRaw`
      UPDATE reports SET status = 'submitted', submitted_at = ${now}, started_at = COALESCE(started_at, ${now}),
        anonymous_requested = ${input.isAnonymous === true}, is_anonymous = ${isAnonymous}, updated_at = ${now}
      WHERE id = ${reportId}`;
  } else {
    const created = await t.report.create({
      data: {
        team_id: actor.teamId,
        checkin_id: standup.id,
        occurrence_id: occurrence.occurrenceId,
        user_id: actor.userId,
        status: "submitted",
        anonymous_requested: input.isAnonymous === true,
        is_anonymous: isAnonymous,
        started_at: now,
        submitted_at: now,
      },
      select: { id: true },
    });
    reportId = created.id;
  }
  await upsertAnswers(t, actor.teamId, reportId, input.answers, now);
  const message = await broadcastReport(t, reportId, now);
  await settleAnonymousReport(t, reportId, now);
  if (!isAnonymous) await emitReportEvent(t, "report.submitted", reportId);
  const view = await loadReportView(reportId, t);
  return {
    reportId,
    standupId: standup.id,
    occurrenceId: occurrence.occurrenceId,
    submittedAt: view.submitted_at, // as stored: an anonymous report's is coarse (issue 45)
    chatTs: message?.ts ?? null,
    channelId: message?.channel_id ?? null,
    view,
  };
}

/**
 * A second submission for a run the member already answered (issue 41): edits that report
 * (`updateReportAnswers`: same id, the broadcast updated and marked "(edited)", `report.updated`)
 * instead of adding a second report and a second broadcast. Report-level anonymity stays as first
 * submitted.
 */
async function resubmit(
  actor: Actor,
  input: SubmitReportInput,
  standup: SubmissionContext,
  answered: { occurrenceId: number; reportId: number },
  tx?: Tx,
): Promise<SubmittedReport> {
  const edited = await updateReportAnswers(actor, { reportId: answered.reportId, answers: input.answers }, tx);
  return {
    reportId: edited.reportId,
    standupId: standup.id,
    occurrenceId: answered.occurrenceId,
    submittedAt: edited.view.submitted_at,
    chatTs: edited.chatTs,
    channelId: edited.chatTs === null ? null : standup.broadcast_channel_id,
    view: edited.view,
  };
}

/** Input of `updateReportAnswers`: one or more answers to replace. */
export type UpdateReportInput = { reportId: number; answers: AnswerInput[] };
/** What `updateReportAnswers` returns: the report id, its broadcast's `chatTs` (null when never broadcast), its v2 view. */
export type EditedReport = { reportId: number; chatTs: string | null; view: ReportView };

/**
 * Replaces some answers of the actor's own submitted report and updates its broadcast message
 * (same `chat_ts`) when it was broadcast (lib/domain/report-edit.ts). Without `tx`, first
 * optimistically in two statements and no transaction (`editUnlocked`); in `tx`, when a webhook
 * listens to `report.updated` (its event is written in the edit's transaction) or when the report
 * changed between the two statements: the row lock, one read, one CTE chain, in one transaction.
 * @returns the report id, the broadcast's `chatTs` (null when never broadcast) and the report's v2 view.
 * @throws NotFoundError when the report is missing, not submitted, of another team, of a draft or
 *   archived standup, or not the actor's; InvalidParameterError for an empty list, duplicate or
 *   foreign question ids.
 */
export async function updateReportAnswers(actor: Actor, input: UpdateReportInput, tx?: Tx): Promise<EditedReport> {
  if (!tx) {
    const edited = await editUnlocked(actor, input);
    if (edited) return edited;
  }
  return inTransaction(tx, async (t) => {
    const now = new Date();
    const report = await lockOwnSubmittedReport(t, actor, input.reportId);
    // After the lock, so an edit that held it before us is seen (lib/domain/report-edit.ts).
    const ctx = await readEditContext(t, report.id);
    if (!ctx) throw new NotFoundError("Report");
    const { answers, rendered, input: edit } = planEdit(ctx, input);
    const ids = await writeEdit(t, { teamId: actor.teamId, reportId: report.id, answers: edit.answers, now }, rendered);
    if (!ids) throw new Error(`The edit of report ${report.id} wrote nothing although it holds the row lock`);
    const view = editedView(ctx, answers, ids);
    if (ctx.listening) await emitReportViewEvent(t, "report.updated", actor.teamId, view);
    return { reportId: report.id, chatTs: ctx.message?.ts ?? null, view };
  });
}

/**
 * The optimistic edit (lib/domain/report-edit.ts): statement 1 reads the report as its author may
 * edit it, statement 2 writes only if the report row is still the version read.
 * @returns the edit's result, or null when the locked path must run instead (a webhook listens to
 *   `report.updated`, or the report changed in between: nothing was written).
 * @throws NotFoundError, InvalidParameterError as `updateReportAnswers`.
 */
async function editUnlocked(actor: Actor, input: UpdateReportInput): Promise<EditedReport | null> {
  const now = new Date();
  const ctx = await readEditContext(db, input.reportId, actor);
  if (!ctx) throw new NotFoundError("Report");
  if (ctx.listening) return null;
  const { answers, rendered, input: edit } = planEdit(ctx, input);
  const ids = await writeEdit(db, { teamId: actor.teamId, reportId: ctx.id, answers: edit.answers, now }, rendered, {
    version: ctx.version,
  });
  if (!ids) return null;
  return { reportId: ctx.id, chatTs: ctx.message?.ts ?? null, view: editedView(ctx, answers, ids) };
}

/**
 * Checks an edit against the report's questions and renders what it writes: the merged answers in
 * question order and the broadcast's new text (null when the report has no live broadcast).
 * @throws InvalidParameterError for an empty list, duplicate or foreign question ids.
 */
function planEdit(ctx: EditContext, raw: UpdateReportInput) {
  checkAnswers(raw.answers, new Set(ctx.questions.map((q) => q.id)));
  const input = { ...raw, answers: normalizeAnswers(raw.answers, ctx.questions, false) };
  const answers = mergedAnswers(ctx, input.answers);
  const rendered = ctx.message
    ? {
        messageId: ctx.message.id,
        text: renderReportText({
          standupName: ctx.checkin.name,
          authorName: reportAuthor(ctx, ctx.author.name),
          answers: answers.map((a) => ({ question: a.question.text, answer: a.text })),
          edited: true,
        }),
      }
    : null;
  return { input, answers, rendered };
}

/**
 * Discards the actor's own submitted report (status `discarded`, `discarded_at` = now; rows are
 * kept for history) and marks its broadcast message deleted.
 * @throws NotFoundError when the report is missing, not submitted, of another team, of a draft or
 *   archived standup, or not the actor's.
 */
export async function discardReport(actor: Actor, input: { reportId: number }, tx?: Tx): Promise<{ reportId: number }> {
  return inTransaction(tx, async (t) => {
    const now = new Date();
    const report = await lockOwnSubmittedReport(t, actor, input.reportId);
    // A reference: the delivery renders the discarded report, as it was (its rows are kept).
    await emitReportEvent(t, "report.deleted", report.id);
    await t.report.update({ where: { id: report.id }, data: { status: "discarded", discarded_at: now } });
    await removeReportBroadcast(t, report.id, now);
    return { reportId: report.id };
  });
}

/**
 * The report a write just touched, in the shape of the v2 report serializer (with answers),
 * read through `tx` so an uncommitted write is visible. No visibility filter: callers pass the id
 * of a report the actor just wrote.
 * @throws NotFoundError when the id does not exist.
 */
export async function loadReportView(reportId: number, tx: Tx = db): Promise<ReportView> {
  // The list's one raw statement (no query compiler per write), filtered to this id only.
  const [row] = await reportViewPage(Prisma.sql`r.id = ${reportId}`, 1, { withAnswers: true }, tx);
  if (!row) throw new NotFoundError("Report");
  return asReportView(row);
}
