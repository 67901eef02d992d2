"use server";

import type { ActionState } from "@/components/ui/action-form";
import { addActivityConnection, removeActivityConnection } from "@/lib/domain/activity-connections";
import { DomainError } from "@/lib/domain/errors";
import { actorFormAction, field } from "../form-action";
import { webhookUrlMessage } from "../people-messages";

/**
 * Adds an activity connection (fields `provider`, `baseUrl`, `login`, `token`) to the signed-in
 * person's sources (issue 48); a refused address comes back in the words of the webhook address rule.
 */
export async function addActivityConnectionAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/profile"], async (actor) => {
    try {
      await addActivityConnection(actor, {
        provider: field(form, "provider"),
        baseUrl: field(form, "baseUrl"),
        login: field(form, "login"),
        token: field(form, "token"),
      });
    } catch (err) {
      const address = err instanceof DomainError ? /^baseUrl: (.*)$/s.exec(err.message)?.[1] : undefined;
      const message = address ? webhookUrlMessage(`url: ${address}`, "Server address", "which activity is not read from") : null;
      if (message && !/needs the address/.test(address ?? "")) return { error: message };
      throw err;
    }
    return { ok: "Connected. Your activity is read each time a standup asks you and pre-fills your answer." };
  });
}

/** Removes one of the signed-in person's activity connections (field `connectionId`) with its token. */
export async function removeActivityConnectionAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/profile"], async (actor) => {
    await removeActivityConnection(actor, { connectionId: Number(field(form, "connectionId")) });
    return { ok: "Connection removed with its token." };
  });
}
