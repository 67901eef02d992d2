"use server";

import type { ActionState } from "@/components/ui/action-form";
import { setAnonymityThreshold } from "@/lib/domain/anonymity";
import { actorFormAction, field } from "../../form-action";

/**
 * Sets the team's anonymity threshold k from Team → Privacy (admins only; `setAnonymityThreshold`,
 * issue 45): field `threshold`, a whole number of at least 2. Domain errors come back as the form's message.
 */
export async function setAnonymityThresholdAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/team/privacy"], async (actor) => {
    const raw = field(form, "threshold").trim();
    if (!/^\d+$/.test(raw)) return { error: "Enter a whole number of people (2 or more)." };
    await setAnonymityThreshold(actor, Number(raw));
    return { ok: `Anonymous results now need ${Number(raw)} answers before they are shown.` };
  });
}
