"use server";

import { redirect } from "next/navigation";
import { submitWithAnswerLink } from "@/lib/domain/answer-links";
import { DomainError } from "@/lib/domain/errors";

/** Submits the answers of an e-mailed answer link (no session: the signed token is the permission). */
export async function answerWithLinkAction(token: string, _prev: { error?: string }, form: FormData): Promise<{ error?: string }> {
  const answers: Array<{ questionId: number; text: string }> = [];
  for (const [key, value] of form.entries()) {
    const m = /^answer-(\d+)$/.exec(key);
    if (m) answers.push({ questionId: Number(m[1]), text: String(value).trim() });
  }
  if (answers.some((a) => a.text === "")) return { error: "Answer every question before sending." };
  try {
    await submitWithAnswerLink(token, answers);
  } catch (err) {
    if (err instanceof DomainError) return { error: err.message };
    throw err;
  }
  redirect(`/answer/${encodeURIComponent(token)}?sent=1`);
}
