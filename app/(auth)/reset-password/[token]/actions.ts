"use server";

import type { ActionState } from "@/components/ui/action-form";
import { resetPassword } from "@/lib/domain/passwords";
import { field } from "../../../(dashboard)/form-action";
import { redeemPasswordLink } from "../../redeem-link";

/** Sets the new password with the link's token, then goes to the sign-in page. */
export async function resetPasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return redeemPasswordLink(form, "reset", () => resetPassword({ token: field(form, "token"), password: field(form, "password") }));
}
