"use server";

import { redirect } from "next/navigation";
import type { ActionState } from "@/components/ui/action-form";
import { requestClientIp } from "@/lib/auth/origin";
import { throttledRedemption } from "@/lib/auth/sign-in-throttle";
import { acceptInvitation } from "@/lib/domain/people";
import { field, formAction } from "../../../(dashboard)/form-action";

/** Accepts an invitation (name, password, timezone), then goes to the sign-in page. */
export async function acceptInvitationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let email = "";
  const result = await formAction(async () => {
    if (field(form, "password") !== field(form, "passwordRepeat")) return { error: "The two passwords differ" };
    ({ email } = await throttledRedemption(await requestClientIp(), () =>
      acceptInvitation({
        token: field(form, "token"),
        name: field(form, "name"),
        password: field(form, "password"),
        timezone: field(form, "timezone"),
      }),
    ));
    return { ok: "done" };
  });
  if (result.ok) redirect(`/sign-in?notice=welcome&email=${encodeURIComponent(email)}`);
  return result;
}
