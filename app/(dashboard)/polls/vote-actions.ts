"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/components/ui/action-form";
import { type FormState, formValues } from "@/components/ui/form-state";
import { getActor } from "@/lib/auth/session";
import { DomainError } from "@/lib/domain/errors";
import { askPollNonVoters } from "@/lib/domain/poll-views";
import { castVote, describeVoteError, getBallot, type VoteAnswerInput } from "@/lib/domain/vote-writes";
import { formAction } from "../form-action";

/**
 * Records the caller's vote from the vote form (same domain call as POST /v2/polls/{id}/votes).
 * Fields: `q-<questionId>` (chosen options, or the open-ended text) and `q-<questionId>-own` (an
 * own option, added to the chosen ones). Every question of the ballot is sent, so the domain
 * reports an unanswered one; its message comes back next to that question (`fieldErrors` keyed
 * `q-<questionId>`), what was typed comes back in `values`.
 */
export async function castVoteAction(pollId: number, _prev: FormState, form: FormData): Promise<FormState> {
  const actor = await getActor();
  const values = formValues(form);
  try {
    const ballot = await getBallot(actor, pollId);
    const answers: VoteAnswerInput[] = ballot.questions.map((q) => {
      if (q.answer_type !== "multiple_choice") return { questionId: q.id, text: String(form.get(`q-${q.id}`) ?? "") };
      const own = String(form.get(`q-${q.id}-own`) ?? "").trim();
      const picked = form.getAll(`q-${q.id}`).map(String);
      return { questionId: q.id, choices: own ? [...picked, own] : picked };
    });
    await castVote(actor, { pollId, answers });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const { questionId, message } = describeVoteError(err);
    return questionId === null ? { error: message, values } : { fieldErrors: { [`q-${questionId}`]: message }, values };
  }
  revalidatePath(`/polls/${pollId}`);
  revalidatePath("/my-checkins");
  return { ok: true, values };
}

/** "Ask now" on a poll: asks again every recipient of the open broadcast who has not voted. */
export async function askPollNowAction(pollId: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const actor = await getActor();
  return formAction(async () => {
    const asked = await askPollNonVoters(actor, pollId);
    revalidatePath(`/polls/${pollId}`);
    return {
      ok:
        asked.length === 0
          ? "Everybody asked has voted (or is away today): nobody to ask again."
          : `Asked ${asked.length} ${asked.length === 1 ? "recipient" : "recipients"} who had not voted yet.`,
    };
  });
}
