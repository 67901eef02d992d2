"use server";

import { redirect } from "next/navigation";
import type { ActionState } from "@/components/ui/action-form";
import { requestClientIp } from "@/lib/auth/origin";
import { throttledRedemption } from "@/lib/auth/sign-in-throttle";
import { resetPassword } from "@/lib/domain/passwords";
import { field, formAction } from "../../../(dashboard)/form-action";

/** Sets the new password with the link's token, then goes to the sign-in page. */
export async function resetPasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let email = "";
  const result = await formAction(async () => {
    if (field(form, "password") !== field(form, "passwordRepeat")) return { error: "The two passwords differ" };
    ({ email } = await throttledRedemption(await requestClientIp(), () =>
      resetPassword({ token: field(form, "token"), password: field(form, "password") }),
    ));
    return { ok: "done" };
  });
  if (result.ok) redirect(`/sign-in?notice=reset&email=${encodeURIComponent(email)}`);
  return result;
}
