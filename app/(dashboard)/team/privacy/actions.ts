"use server";

import type { ActionState } from "@/components/ui/action-form";
import { setAnonymityThreshold } from "@/lib/domain/anonymity";
import { setRetention } from "@/lib/domain/retention";
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

/**
 * Sets the team's retention from Team → Privacy (admins only; `setRetention`, issue 45): fields
 * `days` (empty: forever), `mode` ("anonymise" | "delete") and `auditDays`.
 */
export async function setRetentionAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/team/privacy"], async (actor) => {
    const days = field(form, "days").trim();
    const auditDays = field(form, "auditDays").trim();
    if (days !== "" && !/^\d+$/.test(days)) return { error: "Enter a whole number of days, or leave it empty to keep answers forever." };
    if (!/^\d+$/.test(auditDays)) return { error: "Enter a whole number of days for the audit log." };
    const mode = field(form, "mode") === "delete" ? "delete" : "anonymise";
    await setRetention(actor, { days: days === "" ? null : Number(days), mode, auditDays: Number(auditDays) });
    return {
      ok:
        days === ""
          ? "Answers are kept forever."
          : `Answers older than ${days} days will be ${mode === "delete" ? "deleted" : "anonymised"} nightly.`,
    };
  });
}
