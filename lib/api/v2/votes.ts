/**
 * v2 poll results at the HTTP edge (spec §2.5, §4.2 GET /v2/polls/{id}/votes): the query schema
 * (since inclusive, until exclusive defaulting to now) and the serializer of lib/domain/votes.ts
 * results. Multiple-choice questions carry `choices`; open-ended ones `categorization_status`,
 * `categories` and `responses`; voters are chat user ids (null when the poll is anonymous).
 */
import { z } from "zod";
import { zDate } from "@/lib/api/query";
import type { PollResults, QuestionResult } from "@/lib/domain/votes";

/** Query of GET /v2/polls/{id}/votes. */
export const votesQuerySchema = z.object({ since: zDate.optional(), until: zDate.optional() }).superRefine((q, ctx) => {
  if (q.since && q.until && q.since > q.until)
    ctx.addIssue({ code: "custom", path: ["since"], message: "must not be after until (reversed range)" });
});

export type V2QuestionResult = {
  question_id: number;
  text: string;
  answer_type: "multiple_choice" | "open_ended";
  total_responses: number;
  total_responders: number;
  choices?: Array<{ text: string; votes: number; voters: string[] | null }>;
  categorization_status?: string | null;
  categories?: Array<{ name: string; count: number }>;
  responses?: Array<{ text: string; categories: string[]; user_id: string | null }>;
};

export type V2PollResults = {
  poll_id: number;
  poll_name: string;
  is_anonymous: boolean;
  instances: Array<{ instance_id: number; date: string; questions: V2QuestionResult[] }>;
};

function serializeQuestion(q: QuestionResult): V2QuestionResult {
  const out: V2QuestionResult = {
    question_id: q.questionId,
    text: q.text,
    answer_type: q.answerType,
    total_responses: q.totalResponses,
    total_responders: q.totalResponders,
  };
  if (q.answerType === "multiple_choice") {
    out.choices = (q.choices ?? []).map((c) => ({ text: c.text, votes: c.votes, voters: c.voters ? c.voters.map((v) => v.chatId) : null }));
  } else {
    out.categorization_status = q.categorizationStatus ?? null;
    out.categories = q.categories ?? [];
    out.responses = (q.responses ?? []).map((r) => ({ text: r.text, categories: r.categories, user_id: r.voter ? r.voter.chatId : null }));
  }
  return out;
}

/** Serializes poll results (spec §2.5). */
export function serializePollResultsV2(results: PollResults): V2PollResults {
  return {
    poll_id: results.pollId,
    poll_name: results.pollName,
    is_anonymous: results.isAnonymous,
    instances: results.instances.map((i) => ({ instance_id: i.id, date: i.date, questions: i.questions.map(serializeQuestion) })),
  };
}
