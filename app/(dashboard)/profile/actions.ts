"use server";

import { revalidatePath } from "next/cache";
import { absenceMessage } from "@/components/people-messages";
import type { ActionState } from "@/components/ui/action-form";
import { getActor } from "@/lib/auth/session";
import { addAbsence, removeAbsence } from "@/lib/domain/absences";
import { requestDataExport } from "@/lib/domain/data-exports";
import { erasePerson } from "@/lib/domain/erasure";
import { DomainError } from "@/lib/domain/errors";
import { changePassword } from "@/lib/domain/passwords";
import { updateProfile } from "@/lib/domain/profile";
import { actorFormAction, field } from "../form-action";

/** Asks for the signed-in person's "My data" archive, built by a job and offered for 24 hours (issue 45). */
export async function requestMyDataAction(_prev: ActionState, _form: FormData): Promise<ActionState> {
  return actorFormAction(["/profile"], async (actor) => {
    await requestDataExport(actor);
    return { ok: "Your archive is being prepared; this page shows it when it is ready." };
  });
}

/** Saves the signed-in person's name, timezone, avatar URL and notification channel. */
export async function updateProfileAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction([["/", "layout"]], async (actor) => {
    await updateProfile(actor, {
      name: field(form, "name"),
      timezone: field(form, "timezone"),
      avatarUrl: field(form, "avatarUrl"),
      notificationChannel: field(form, "notificationChannel"),
    });
    return { ok: "Profile saved." };
  });
}

/** Changes the signed-in person's password (the current one is required once one exists). */
export async function changePasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction([], async (actor) => {
    if (field(form, "next") !== field(form, "nextRepeat")) return { error: "The two new passwords differ" };
    await changePassword(actor, { current: field(form, "current"), next: field(form, "next") });
    return { ok: "Password changed." };
  });
}

/** Adds a vacation or out-of-office range for the signed-in person. */
export async function addOwnAbsenceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/profile", "/team"], async (actor) => {
    try {
      await addAbsence(actor, {
        userId: actor.userId,
        kind: field(form, "kind") === "out_of_office" ? "out_of_office" : "vacation",
        startDate: field(form, "startDate"),
        endDate: field(form, "endDate"),
        note: field(form, "note"),
      });
    } catch (err) {
      if (err instanceof DomainError) return { error: absenceMessage(err.message).message };
      throw err;
    }
    return { ok: "Absence added." };
  });
}

/** Removes one of the signed-in person's absences. */
export async function removeOwnAbsenceAction(form: FormData): Promise<void> {
  const actor = await getActor();
  await removeAbsence(actor, { absenceId: Number(form.get("absenceId")) });
  revalidatePath("/profile");
  revalidatePath("/team");
}

/**
 * Erases a person (issue 45, `erasePerson`): field `userId` (the signed-in person, or any member for
 * an admin) and `confirm`, their e-mail address typed again.
 */
export async function erasePersonAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction([["/", "layout"]], async (actor) => {
    const userId = Number(field(form, "userId"));
    if (!Number.isInteger(userId) || userId <= 0) return { error: "Unknown person." };
    const done = await erasePerson(actor, { userId, confirm: field(form, "confirm") });
    return { ok: `Erased: ${done.answersDeleted} answers deleted, ${done.broadcastsDeleted} chat messages being deleted.` };
  });
}
