/**
 * POST /v2/polls/{pollId}/votes at the HTTP edge (a v2 extension, issue 10): the body schema, its
 * mapping onto lib/domain/vote-writes.ts `castVote`, and the serializer of the recorded vote with its
 * response schema.
 *
 * Body: `{"answers": [{"question_id": 1, "choices": ["Coffee"]}, {"question_id": 2, "text": "..."}]}`.
 * 200 `{data: {poll_id, instance_id, date, voted_at, answers: [{question_id, choices, text}]}}`.
 */
import { z } from "zod";
import { dataEnvelopeSchema } from "@/lib/api/envelope";
import { zCalendarDate, zId, zTimestamp } from "@/lib/api/wire";
import type { CastVoteInput, CastVoteResult } from "@/lib/domain/vote-writes";

const zAnswer = z
  .object({
    question_id: z.number({ message: "must be a number" }).int("must be an integer").min(1, "must be a positive integer"),
    choices: z
      .array(z.string({ message: "must be a string" }), { message: "must be an array of strings" })
      .min(1)
      .max(50)
      .optional(),
    text: z.string({ message: "must be a string" }).optional(),
  })
  .refine((a) => (a.choices === undefined) !== (a.text === undefined), { message: "give either choices or text" });

/** Body of POST /v2/polls/{pollId}/votes. */
export const voteCreateBodySchema = z.object({
  answers: z
    .array(zAnswer, { message: "must be an array of {question_id, choices | text}" })
    .min(1, "at least one answer is required")
    .max(50),
});

/** Maps the body onto `castVote`'s input. */
export function toCastVoteInput(pollId: number, body: z.output<typeof voteCreateBodySchema>): CastVoteInput {
  return { pollId, answers: body.answers.map((a) => ({ questionId: a.question_id, choices: a.choices, text: a.text })) };
}

/** The recorded vote in the v2 shape: `data` of POST /v2/polls/{pollId}/votes. */
export const voteV2Schema = z
  .strictObject({
    poll_id: zId,
    instance_id: zId.meta({ description: "The broadcast voted on (the poll's current instance)." }),
    date: zCalendarDate.meta({ description: "Broadcast date, YYYY-MM-DD." }),
    voted_at: zTimestamp.meta({ description: "ISO 8601 timestamp of the vote." }),
    answers: z.array(
      z.strictObject({
        question_id: zId,
        choices: z.array(z.string()).nullable().meta({ description: "Chosen labels (multiple-choice); null for open-ended." }),
        text: z.string().nullable().meta({ description: "The answer (open-ended); null for multiple-choice." }),
      }),
    ),
  })
  .meta({ id: "VoteV2" });

export type V2Vote = z.output<typeof voteV2Schema>;
export const voteDataV2Schema = dataEnvelopeSchema(voteV2Schema, "VoteDataV2");

export function serializeVoteV2(vote: CastVoteResult): V2Vote {
  return {
    poll_id: vote.pollId,
    instance_id: vote.instanceId,
    date: vote.date,
    voted_at: vote.votedAt.toISOString(),
    answers: vote.answers.map((a) => ({ question_id: a.questionId, choices: a.choices, text: a.text })),
  };
}
