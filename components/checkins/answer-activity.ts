import type { AnswerActivity } from "@/components/checkins/answer-form";
import { type ActivityPrefill, activityQuestionId } from "@/lib/domain/activity-suggestions";
import type { FormQuestion } from "@/lib/domain/question-types";

/**
 * The answer form's activity pre-fill (issue 48) from the cached activity of the run: on the
 * standup's first free-text question (`activityQuestionId`); null without a cache row or without
 * such a question.
 */
export function answerActivity(prefill: ActivityPrefill | null, questions: FormQuestion[]): AnswerActivity | null {
  const questionId = activityQuestionId(questions);
  if (!prefill || questionId === null) return null;
  return { questionId, text: prefill.text, errors: prefill.errors, fetched: prefill.fetchedAt !== null };
}
