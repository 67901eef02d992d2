"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { absenceMessage } from "@/components/people-messages";
import { type FormState, formValues, zodFieldErrors } from "@/components/ui/form-state";
import { getActor } from "@/lib/auth/session";
import { addAbsence, removeAbsence } from "@/lib/domain/absences";
import { DomainError } from "@/lib/domain/errors";

export type AbsenceFormState = FormState;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const absenceSchema = z
  .object({
    userId: z.string().regex(/^\d+$/, "Choose a member"),
    kind: z.enum(["vacation", "out_of_office"], { message: "Choose vacation or out of office" }),
    startDate: z.string().regex(DATE, "Enter the first day"),
    endDate: z.string().regex(DATE, "Enter the last day"),
    note: z.string().trim().max(200, "Keep the note under 200 characters"),
  })
  .refine((v) => v.endDate >= v.startDate, { path: ["endDate"], message: "The last day must be on or after the first day" })
  .refine((v) => Date.parse(v.endDate) - Date.parse(v.startDate) <= 366 * 86_400_000, {
    path: ["endDate"],
    message: "An absence can last one year at most",
  });

/** Adds a vacation / out-of-office range for a team member (admins only). On errors the form keeps its input. */
export async function addAbsenceAction(_prev: AbsenceFormState, form: FormData): Promise<AbsenceFormState> {
  const actor = await getActor();
  const values = formValues(form);
  const parsed = absenceSchema.safeParse({
    userId: String(form.get("userId") ?? ""),
    kind: String(form.get("kind") ?? ""),
    startDate: String(form.get("startDate") ?? ""),
    endDate: String(form.get("endDate") ?? ""),
    note: String(form.get("note") ?? ""),
  });
  if (!parsed.success) return { values, fieldErrors: zodFieldErrors(parsed.error) };
  try {
    await addAbsence(actor, { ...parsed.data, userId: Number(parsed.data.userId) });
  } catch (err) {
    if (err instanceof DomainError) {
      const { field, message } = absenceMessage(err.message);
      return field ? { values, fieldErrors: { [field]: message } } : { values, error: message };
    }
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
