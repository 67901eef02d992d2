"use server";

import { webhookUrlMessage } from "@/components/people-messages";
import type { ActionState } from "@/components/ui/action-form";
import { addActivityConnection, removeActivityConnection } from "@/lib/domain/activity-connections";
import { DomainError } from "@/lib/domain/errors";
import { actorFormAction, field } from "../form-action";

/** The form's labels of the domain's field names. */
const LABELS: Record<string, string> = { provider: "Service", baseUrl: "Server address", login: "Account", token: "Access token" };

/** A refused connection in the form's words: the field's label, and the webhook address rule's sentences for the address. */
function connectionMessage(message: string): string {
  const m = /^(provider|baseUrl|login|token): (.*)$/s.exec(message);
  if (!m) return message;
  const [, name, problem] = m;
  const address = name === "baseUrl" ? webhookUrlMessage(`url: ${problem}`, LABELS.baseUrl, "which activity is not read from") : null;
  return address && !/needs the address|at most 500/.test(problem) ? address : `${LABELS[name]}: ${problem}`;
}

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
      if (!(err instanceof DomainError)) throw err;
      return { error: connectionMessage(err.message) };
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
