"use server";

import type { ActionState } from "@/components/ui/action-form";
import { requestClientIp } from "@/lib/auth/origin";
import { linkRequestBlockedBy, linkRequestThrottledMessage } from "@/lib/auth/sign-in-throttle";
import { requestPasswordReset } from "@/lib/domain/passwords";
import { field } from "../../(dashboard)/form-action";

/**
 * Sends a reset link when the address has an account (the answer is the same either way); at most
 * LINK_REQUESTS_PER_HOUR requests per address (and 4 × that per client IP) per hour. The link
 * points at PUBLIC_URL (lib/env.ts `linkBaseUrl`), whatever the request's headers say.
 */
export async function forgotPasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const blocked = await linkRequestBlockedBy({ email: field(form, "email"), ip: await requestClientIp() });
  if (blocked) return { error: linkRequestThrottledMessage(blocked) };
  const { emailConfigured } = await requestPasswordReset({ email: field(form, "email") });
  if (!emailConfigured) return { error: "This server cannot send e-mail. Ask a team admin for a password-reset link (Team → Members)." };
  return { ok: "If an account uses that address, a link to reset the password is on its way (valid for one hour)." };
}
