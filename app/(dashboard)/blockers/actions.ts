"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/session";
import { setBlockerResolved } from "@/lib/domain/blockers";

/** Sets or clears the resolved marker of one blocker (form fields `answerId`, `resolved` = "true"|"false"). */
export async function setBlockerResolvedAction(form: FormData): Promise<void> {
  const actor = await getActor();
  const answerId = Number(form.get("answerId"));
  if (!Number.isSafeInteger(answerId)) return;
  await setBlockerResolved(actor, { answerId, resolved: form.get("resolved") === "true" });
  revalidatePath("/blockers");
  revalidatePath("/overview");
}
