"use server";

import { redirect } from "next/navigation";
import type { ActionState } from "@/components/ui/action-form";
import { setupFirstTeam } from "@/lib/domain/first-run";
import { field, formAction } from "../../(dashboard)/form-action";

/** Creates the first team and admin (only on an empty database), then goes to the sign-in page. */
export async function setupAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const result = await formAction(async () => {
    if (field(form, "password") !== field(form, "passwordRepeat")) return { error: "The two passwords differ" };
    await setupFirstTeam({
      teamName: field(form, "teamName"),
      timezone: field(form, "timezone"),
      admin: { name: field(form, "name"), email: field(form, "email"), password: field(form, "password") },
    });
    return { ok: "done" };
  });
  if (result.ok) redirect(`/sign-in?notice=setup&email=${encodeURIComponent(field(form, "email").trim().toLowerCase())}`);
  return result;
}
