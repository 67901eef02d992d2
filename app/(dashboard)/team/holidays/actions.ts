"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/components/ui/action-form";
import { getActor } from "@/lib/auth/session";
import { addHoliday, removeHoliday } from "@/lib/domain/holidays";
import { field, formAction } from "../../form-action";

/**
 * Adds a team holiday from the holidays page (admins only; `addHoliday`): fields `date`
 * ("YYYY-MM-DD") and `name`. Domain errors (not an admin, bad date, date already a holiday) come
 * back as the form's message.
 */
export async function addHolidayAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return formAction(async () => {
    const actor = await getActor();
    const date = field(form, "date");
    const name = field(form, "name").trim();
    if (!date) return { error: "Pick the date of the holiday." };
    if (!name) return { error: "Give the holiday a name." };
    const holiday = await addHoliday(actor, { date, name });
    revalidatePath("/team/holidays");
    return { ok: `Added ${holiday.name} on ${holiday.date}. No standup runs that day.` };
  });
}

/** Removes a team holiday (admins only; `removeHoliday`): field `holidayId`. */
export async function removeHolidayAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return formAction(async () => {
    const actor = await getActor();
    await removeHoliday(actor, { holidayId: Number(field(form, "holidayId")) });
    revalidatePath("/team/holidays");
    return { ok: "Holiday removed." };
  });
}
