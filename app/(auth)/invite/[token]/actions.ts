"use server";

import type { ActionState } from "@/components/ui/action-form";
import { acceptInvitation } from "@/lib/domain/people";
import { field } from "../../../(dashboard)/form-action";
import { redeemPasswordLink } from "../../redeem-link";

/** Accepts an invitation (name, password, timezone), then goes to the sign-in page. */
export async function acceptInvitationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return redeemPasswordLink(form, "welcome", () =>
    acceptInvitation({
      token: field(form, "token"),
      name: field(form, "name"),
      password: field(form, "password"),
      timezone: field(form, "timezone"),
    }),
  );
}
