"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { answerErrorMessage, answersFromForm } from "@/components/checkins/form-answers";
import type { ActionState } from "@/components/ui/action-form";
import { getActor } from "@/lib/auth/session";
import { allowsAnonymousReports } from "@/lib/domain/dashboard";
import { DomainError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";
import { discardReport, submitReport, updateReportAnswers } from "@/lib/domain/report-writes";
import { formAction } from "../form-action";

export type AnswerFormState = { error?: string };

/**
 * Submits the caller's report (same domain call as POST /v2/reports) or, when `reportId` is given,
 * replaces its answers (same call as PATCH /v2/reports/{id}).
 */
export async function saveCheckinAction(
  target: { standupId: number; reportId: number | null },
  _prev: AnswerFormState,
  form: FormData,
): Promise<AnswerFormState> {
  const actor = await getActor();
  const { answers } = answersFromForm(form);
  if (answers.length === 0) return { error: "Answer every question before sending." };
  if (answers.some((a) => a.text.length > LIMITS.answerText)) return { error: `Answers are at most ${LIMITS.answerText} characters.` };
  try {
    if (target.reportId) await updateReportAnswers(actor, { reportId: target.reportId, answers });
    else {
      // "Post this report anonymously" counts only where the standup allows it (issue 41 item 11).
      const allowed = await allowsAnonymousReports(actor, target.standupId);
      await submitReport(actor, { standupId: target.standupId, answers, isAnonymous: allowed && form.get("anonymous") === "on" });
    }
  } catch (err) {
    if (err instanceof DomainError) return { error: answerErrorMessage(err) };
    throw err;
  }
  revalidatePath("/my-checkins");
  revalidatePath("/reports");
  redirect("/my-checkins?saved=1");
}

/** Deletes (discards) the caller's own report (same call as DELETE /v2/reports/{id}). */
export async function deleteCheckinAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await getActor();
  const result = await formAction(async () => {
    await discardReport(actor, { reportId: Number(form.get("reportId")) });
    return { ok: "deleted" };
  });
  if (!result.ok) return result;
  revalidatePath("/my-checkins");
  redirect("/my-checkins?deleted=1");
}
