"use server";

import { redirect } from "next/navigation";
import { answerErrorMessage, answersFromForm } from "@/components/checkins/form-answers";
import { submitWithAnswerLink } from "@/lib/domain/answer-links";
import { DomainError } from "@/lib/domain/errors";

/** Submits the answers of an e-mailed answer link (no session: the signed token is the permission). */
export async function answerWithLinkAction(token: string, _prev: { error?: string }, form: FormData): Promise<{ error?: string }> {
  const { answers } = answersFromForm(form);
  if (answers.length === 0) return { error: "Answer every question before sending." };
  try {
    await submitWithAnswerLink(token, answers);
  } catch (err) {
    if (err instanceof DomainError) return { error: answerErrorMessage(err) };
    throw err;
  }
  redirect(`/answer/${encodeURIComponent(token)}?sent=1`);
}
