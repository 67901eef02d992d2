"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getActor } from "@/lib/auth/session";
import { DomainError } from "@/lib/domain/errors";
import { createPoll } from "@/lib/domain/polls";

export type PollFormState = { error?: string };

/** Creates and broadcasts a one-shot poll (same domain call as POST /v2/polls). */
export async function createPollAction(_prev: PollFormState, form: FormData): Promise<PollFormState> {
  const actor = await getActor();
  const durationRaw = String(form.get("duration") ?? "").trim();
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
