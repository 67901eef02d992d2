"use server";

import { redirect } from "next/navigation";
import type { ActionState } from "@/components/ui/action-form";
import { InvalidParameterError } from "@/lib/domain/errors";
import { closePollNow, deletePoll, editPoll, setPollPaused } from "@/lib/domain/poll-lifecycle";
import { instantAtLocal, isValidTimezone } from "@/lib/domain/schedule";
import { actorFormAction, field } from "../form-action";

const paths = (id: number) => [`/polls/${id}`, "/polls", "/my-checkins"];

/** "Close now": closes the open broadcast of poll `pollId` (results posted to its channel). */
export async function closePollNowAction(pollId: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  return actorFormAction(paths(pollId), async (actor) => {
    await closePollNow(actor, pollId);
    return { ok: "Poll closed: the results were posted to its channel." };
  });
}

/** "Pause" / "Resume" (`paused` "1" or "0"). */
export async function setPollPausedAction(pollId: number, paused: boolean, _prev: ActionState, _form: FormData): Promise<ActionState> {
  return actorFormAction(paths(pollId), async (actor) => {
    await setPollPaused(actor, pollId, paused);
    return { ok: paused ? "Poll paused: nobody can vote until you resume it." : "Poll resumed." };
  });
}

/** "Delete" (confirmed in the browser): archives the poll, then back to the Polls list with a notice. */
export async function deletePollAction(pollId: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  await actorFormAction(["/polls", "/my-checkins"], async (actor) => {
    await deletePoll(actor, pollId);
    return undefined;
  });
  redirect("/polls?deleted=1");
}

/**
 * "Edit poll": fields `name`, `q-<questionId>` (question wording, only sent while nobody voted),
 * `closes_at` (datetime-local in `timezone`, the viewer's; empty: open until closed by hand; absent
 * when no broadcast is open).
 */
export async function editPollAction(pollId: number, _prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(paths(pollId), async (actor) => {
    const questionTexts: Record<number, string> = {};
    for (const key of form.keys()) {
      const m = /^q-(\d+)$/.exec(key);
      if (m) questionTexts[Number(m[1])] = field(form, key);
    }
    let closesAt: Date | null | undefined;
    if (form.has("closes_at")) {
      const raw = field(form, "closes_at").trim();
      const tz = field(form, "timezone");
      const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(raw);
      if (raw && !m) throw new InvalidParameterError("Closes at: enter a date and time, e.g. 2026-12-01 17:00.");
      closesAt = m ? instantAtLocal(m[1], `${m[2]}:00`, isValidTimezone(tz) ? tz : "UTC") : null;
    }
    await editPoll(actor, pollId, { name: field(form, "name"), questionTexts, closesAt });
    return { ok: "Poll saved." };
  });
}
