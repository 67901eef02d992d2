import { MULTI_SELECT_SEPARATOR } from "@/lib/domain/question-types";
import type { AnswerInput } from "@/lib/domain/report-writes";

/**
 * The answers of a submitted `AnswerForm` (fields `answer-<question id>`): a multi-select's
 * checked boxes (the same name repeated) joined by "\n" (lib/domain/question-types.ts); blank
 * answers left out, so an optional question may be skipped while a required one is refused by the
 * submission ("is required").
 * @returns the answers and whether any was blank (the caller's "answer every question" message).
 */
export function answersFromForm(form: FormData): { answers: AnswerInput[]; blank: boolean } {
  const byQuestion = new Map<number, string[]>();
  for (const [key, value] of form.entries()) {
    const m = /^answer-(\d+)$/.exec(key);
    if (!m) continue;
    const id = Number(m[1]);
    byQuestion.set(id, [...(byQuestion.get(id) ?? []), String(value).trim()]);
  }
  let blank = false;
  const answers: AnswerInput[] = [];
  for (const [questionId, values] of byQuestion) {
    const text = values.filter(Boolean).join(MULTI_SELECT_SEPARATOR);
    if (text) answers.push({ questionId, text });
    else blank = true;
  }
  return { answers, blank };
}

/**
 * A domain error of a submission as the answer forms show it: without the API's field prefix and
 * question id ('answers: the answer to question_id 4 ("Mood?") must be …' → 'The answer to "Mood?" must be …').
 */
export function answerErrorMessage(err: Error): string {
  const text = err.message.replace(/^answers: /, "").replace(/question_id \d+ \(("[^"]*")\)/, "$1");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
