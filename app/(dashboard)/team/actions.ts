"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/session";
import { addAbsence, removeAbsence } from "@/lib/domain/absences";
import { DomainError } from "@/lib/domain/errors";

export type AbsenceFormState = { error?: string; ok?: boolean };

/** Adds a vacation / out-of-office range for a team member (admins only). */
export async function addAbsenceAction(_prev: AbsenceFormState, form: FormData): Promise<AbsenceFormState> {
  const actor = await getActor();
  try {
    await addAbsence(actor, {
      userId: Number(form.get("userId")),
      kind: form.get("kind") === "out_of_office" ? "out_of_office" : "vacation",
      startDate: String(form.get("startDate") ?? ""),
      endDate: String(form.get("endDate") ?? ""),
      note: String(form.get("note") ?? ""),
    });
  } catch (err) {
    if (err instanceof DomainError) return { error: err.message };
    throw err;
  }
  revalidatePath("/team");
  revalidatePath("/overview");
  revalidatePath("/standups", "layout");
  return { ok: true };
}

/** Removes an absence (admins only). */
export async function removeAbsenceAction(form: FormData): Promise<void> {
  const actor = await getActor();
  await removeAbsence(actor, { absenceId: Number(form.get("absenceId")) });
  revalidatePath("/team");
}
