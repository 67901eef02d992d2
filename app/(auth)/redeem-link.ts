import { redirect } from "next/navigation";
import type { ActionState } from "@/components/ui/action-form";
import { requestClientIp } from "@/lib/auth/origin";
import { throttledRedemption } from "@/lib/auth/sign-in-throttle";
import { field, formAction } from "../(dashboard)/form-action";

/**
 * The steps of a form that sets a password through an e-mailed link (invitation, password reset):
 * checks that `password` and `passwordRepeat` match, runs `redeem` (which uses the link's token and
 * returns the person's e-mail) throttled per client IP, then redirects to the sign-in page with
 * `notice` and the e-mail. Returns the form's error state when the passwords differ, the link is
 * not valid (a domain error) or the client is throttled.
 */
export async function redeemPasswordLink(
  form: FormData,
  notice: "welcome" | "reset",
  redeem: () => Promise<{ email: string }>,
): Promise<ActionState> {
  let email = "";
  const result = await formAction(async () => {
    if (field(form, "password") !== field(form, "passwordRepeat")) return { error: "The two passwords differ" };
    ({ email } = await throttledRedemption(await requestClientIp(), redeem));
    return { ok: "done" };
  });
  if (result.ok) redirect(`/sign-in?notice=${notice}&email=${encodeURIComponent(email)}`);
  return result;
}
