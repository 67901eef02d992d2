"use server";

import type { ActionState } from "@/components/ui/action-form";
import { requestOrigin } from "@/lib/auth/origin";
import { requestPasswordReset } from "@/lib/domain/passwords";
import { field } from "../../(dashboard)/form-action";

/** Sends a reset link when the address has an account (the answer is the same either way). */
export async function forgotPasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const { emailConfigured } = await requestPasswordReset({ email: field(form, "email"), baseUrl: await requestOrigin() });
  if (!emailConfigured) return { error: "This server cannot send e-mail. Ask a team admin for a password-reset link (Team → Members)." };
  return { ok: "If an account uses that address, a link to reset the password is on its way (valid for one hour)." };
}
