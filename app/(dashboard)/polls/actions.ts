"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getActor } from "@/lib/auth/session";
import { DomainError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";
import { createPoll } from "@/lib/domain/polls";

export type PollFormState = { error?: string };

/** The message for the first poll field over its size limit (lib/domain/limits.ts), or null. */
function tooLongPollField(form: FormData): string | null {
  const text = (k: string) => String(form.get(k) ?? "").trim();
  if (text("name").length > LIMITS.name) return `The name is at most ${LIMITS.name} characters.`;
  if (text("question").length > LIMITS.questionText) return `The question is at most ${LIMITS.questionText} characters.`;
  const choices = text("choices")
    .split("\n")
    .map((c) => c.trim())
    .filter(Boolean);
  if (choices.length > LIMITS.choices) return `At most ${LIMITS.choices} choices.`;
  if (choices.some((c) => c.length > LIMITS.choiceText)) return `Choices are at most ${LIMITS.choiceText} characters.`;
  return null;
}

/** Creates and broadcasts a one-shot poll (same domain call as POST /v2/polls). */
export async function createPollAction(_prev: PollFormState, form: FormData): Promise<PollFormState> {
  const actor = await getActor();
  const durationRaw = String(form.get("duration") ?? "").trim();
  const tooLong = tooLongPollField(form);
  if (tooLong) return { error: tooLong };
  let id: number;
  try {
    const created = await createPoll(actor, {
      name: String(form.get("name") ?? "").trim(),
      question: String(form.get("question") ?? "").trim(),
      choices: String(form.get("choices") ?? "")
        .split("\n")
        .map((c) => c.trim())
        .filter(Boolean),
      broadcastChannel: String(form.get("channel") ?? ""),
      duration: durationRaw ? Number(durationRaw) : null,
      isAnonymous: form.get("anonymous") === "on",
      intro: String(form.get("intro") ?? "").trim() || null,
    });
    id = created.id;
  } catch (err) {
    if (err instanceof DomainError) return { error: err.message };
    throw err;
  }
  revalidatePath("/polls");
  redirect(`/polls/${id}`);
}
