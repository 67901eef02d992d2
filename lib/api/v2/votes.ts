/**
 * v2 poll results at the HTTP edge (spec §2.5, §4.2 GET /v2/polls/{id}/votes): the query schema
 * (since inclusive, until exclusive defaulting to now) and the serializer of lib/domain/votes.ts
 * results. Multiple-choice questions carry `choices`; open-ended ones `categorization_status`,
 * `categories` and `responses`; voters are chat user ids (null when the poll is anonymous).
 *
 * GET /v2/polls/{id}/votes does not call the serializer: PostgreSQL builds the same JSON text
 * (lib/domain/poll-votes-wire.ts `pollVotesWire`, checked byte for byte against
 * `serializePollResultsV2` by tests/votes-wire.test.ts) and the route sends it as it is.
 */
import { z } from "zod";
import { dataEnvelopeSchema } from "@/lib/api/envelope";
import { zDate } from "@/lib/api/query";
import { categoryCountSchema, zCalendarDate, zChatUserId, zCount, zId } from "@/lib/api/wire";
import type { PollResults, QuestionResult } from "@/lib/domain/votes";

/** Query of GET /v2/polls/{id}/votes. */
export const votesQuerySchema = z.object({ since: zDate.optional(), until: zDate.optional() }).superRefine((q, ctx) => {
  if (q.since && q.until && q.since > q.until)
    ctx.addIssue({ code: "custom", path: ["since"], message: "must not be after until (reversed range)" });
});

const questionResultShape = {
  question_id: zId,
  text: z.string(),
  total_responses: zCount.meta({ description: "Total answers submitted." }),
  total_responders: zCount.meta({ description: "Distinct responders." }),
};

/** Multiple-choice question result (spec §2.5). */
export const multipleChoiceResultV2Schema = z
  .strictObject({
    ...questionResultShape,
    answer_type: z.literal("multiple_choice"),
    choices: z.array(
      z.strictObject({
        text: z.string().meta({ description: "Choice label." }),
        votes: zCount,
        voters: z.array(zChatUserId).nullable().meta({ description: "User ids; null when the poll is anonymous." }),
      }),
    ),
  })
  .meta({ id: "MultipleChoiceResultV2" });

/** Open-ended question result (spec §2.5). */
export const openEndedResultV2Schema = z
  .strictObject({
    ...questionResultShape,
    answer_type: z.literal("open_ended"),
    categorization_status: z.enum(["pending", "processing", "completed", "failed"]).nullable(),
    categories: z.array(categoryCountSchema).optional().meta({ description: "When categorization is completed." }),
    responses: z.array(
      z.strictObject({
        text: z.string(),
        categories: z.array(z.string()).optional().meta({ description: "Categories assigned, when categorization is completed." }),
        user_id: zChatUserId.nullable().meta({ description: "Null when the poll is anonymous." }),
      }),
    ),
  })
  .meta({ id: "OpenEndedResultV2" });

/** v2 poll results (spec §2.5): `data` of GET /v2/polls/{pollId}/votes. */
export const pollResultsV2Schema = z
  .strictObject({
    poll_id: zId,
    poll_name: z.string(),
    is_anonymous: z.boolean(),
    instances: z
      .array(
        z.strictObject({
          instance_id: zId,
          date: zCalendarDate,
          questions: z.array(z.discriminatedUnion("answer_type", [multipleChoiceResultV2Schema, openEndedResultV2Schema])),
          suppressed: z.literal(true).optional().meta({
            description:
              "Extension (issue 45): present when the poll is anonymous and fewer than the team's anonymity threshold (k) answered this instance; every question then shows zero totals and empty lists.",
          }),
          answers_needed: zCount.optional().meta({
            description: "Extension (issue 45), with `suppressed`: how many more people must answer before the results show.",
          }),
        }),
      )
      .meta({ description: "Instances in scope (latest only by default)." }),
  })
  .meta({ id: "PollResultsV2" });

export type V2QuestionResult = z.output<typeof multipleChoiceResultV2Schema> | z.output<typeof openEndedResultV2Schema>;
export type V2PollResults = z.output<typeof pollResultsV2Schema>;
export const pollResultsDataV2Schema = dataEnvelopeSchema(pollResultsV2Schema, "PollResultsDataV2");

function serializeQuestion(q: QuestionResult): V2QuestionResult {
  const head = { question_id: q.questionId, text: q.text };
  const totals = { total_responses: q.totalResponses, total_responders: q.totalResponders };
  if (q.answerType === "multiple_choice") {
    return {
      ...head,
      answer_type: "multiple_choice",
      ...totals,
      choices: (q.choices ?? []).map((c) => ({ text: c.text, votes: c.votes, voters: c.voters ? c.voters.map((v) => v.chatId) : null })),
    };
  }
  return {
    ...head,
    answer_type: "open_ended",
    ...totals,
    categorization_status: q.categorizationStatus ?? null,
    categories: q.categories ?? [],
    responses: (q.responses ?? []).map((r) => ({ text: r.text, categories: r.categories, user_id: r.voter ? r.voter.chatId : null })),
  };
}

/** Serializes poll results (spec §2.5). */
export function serializePollResultsV2(results: PollResults): V2PollResults {
  return {
    poll_id: results.pollId,
    poll_name: results.pollName,
    is_anonymous: results.isAnonymous,
    instances: results.instances.map((i) => ({
      instance_id: i.id,
      date: i.date,
      questions: i.questions.map(serializeQuestion),
      ...(i.answersNeeded > 0 ? { suppressed: true as const, answers_needed: i.answersNeeded } : {}),
    })),
  };
}
