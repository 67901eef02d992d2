/**
 * v2 report writes at the HTTP edge (spec §4.2 POST /v2/reports, PATCH and DELETE
 * /v2/reports/{id}): body schemas and their mapping onto lib/domain/report-writes.ts. Responses
 * use the v2 report serializer of lib/api/v2/reports.ts.
 */
import { z } from "zod";
import type { WriteResult } from "@/lib/api/idempotency";
import { serializeReportV2 } from "@/lib/api/v2/reports";
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { MAX_DB_ID } from "@/lib/domain/constants";
import { LIMITS } from "@/lib/domain/limits";
import { type AnswerInput, type SubmitReportInput, submitReport } from "@/lib/domain/report-writes";

const zDbId = z
  .number({ message: "must be a number" })
  .int("must be an integer")
  .min(1, "must be a positive integer")
  .max(MAX_DB_ID, "is out of range");

const zAnswers = z
  .array(
    z.object({
      question_id: zDbId,
      text: z.string({ message: "must be a string" }).max(LIMITS.answerText, `must be at most ${LIMITS.answerText} characters`),
    }),
    { message: "must be an array of {question_id, text}" },
  )
  .min(1, "at least one answer is required")
  .max(LIMITS.questions, `must have at most ${LIMITS.questions} answers`);

/**
 * Body of POST /v2/reports. `is_anonymous` (optional, an extension) is the report-level flag.
 * `standup_id` is any positive integer: one beyond the id range names no standup, so it is 404
 * NOT_FOUND ("standup missing", decided in the domain), not 400.
 */
export const reportCreateBodySchema = z.object({
  standup_id: z.number({ message: "must be a number" }).int("must be an integer").min(1, "must be a positive integer"),
  answers: zAnswers,
  is_anonymous: z.boolean().optional(),
});

/** Body of PATCH /v2/reports/{id}: one or more answers to replace. */
export const reportUpdateBodySchema = z.object({ answers: zAnswers });

function toAnswers(answers: Array<{ question_id: number; text: string }>): AnswerInput[] {
  return answers.map((a) => ({ questionId: a.question_id, text: a.text }));
}

/** Maps the POST body onto `submitReport`'s input (every question must be answered). */
export function toSubmitReportInput(body: z.output<typeof reportCreateBodySchema>): SubmitReportInput {
  return {
    standupId: body.standup_id,
    answers: toAnswers(body.answers),
    isAnonymous: body.is_anonymous ?? false,
    requireAllQuestions: true,
  };
}

/** Maps the PATCH body onto `updateReportAnswers`' answers. */
export function toUpdateAnswers(body: z.output<typeof reportUpdateBodySchema>): AnswerInput[] {
  return toAnswers(body.answers);
}

/**
 * Submits the caller's report (in `tx` when given, else `submitReport` opens a transaction only
 * when its write is more than one statement) and answers `{data: report}` as GET
 * /v2/reports/{id} reads it: the write of POST /v2/reports and of the MCP tool `post_report`.
 * @throws what `submitReport` throws (NotFoundError, InvalidParameterError, UnprocessableError).
 */
export async function submitReportResult(actor: Actor, input: SubmitReportInput, tx?: Tx): Promise<WriteResult> {
  const { view } = await submitReport(actor, input, tx);
  return { status: 200, body: { data: serializeReportV2(view) } };
}
