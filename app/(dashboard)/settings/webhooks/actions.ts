"use server";

import { revalidatePath } from "next/cache";
import { webhookUrlMessage } from "@/components/people-messages";
import type { ActionState } from "@/components/ui/action-form";
import type { CreateWebhookState } from "@/components/webhooks/create-webhook-form";
import { getActor } from "@/lib/auth/session";
import { DomainError } from "@/lib/domain/errors";
import type { WebhookEventType } from "@/lib/domain/webhook-events";
import { createWebhook, deleteWebhook, sendTestWebhook, updateWebhook } from "@/lib/domain/webhooks";
import { actorFormAction } from "../../form-action";

/** Creates an endpoint (same domain call as POST /v2/webhooks); the secret is returned once. */
export async function createWebhookAction(_prev: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  const actor = await getActor();
  const events = form.getAll("events").map(String) as WebhookEventType[];
  if (events.length === 0) return { error: "Choose at least one event." };
  try {
    const { secret } = await createWebhook(actor, {
      url: String(form.get("url") ?? "").trim(),
      events,
      description: String(form.get("description") ?? "").slice(0, 500),
    });
    revalidatePath("/settings/webhooks");
    return { secret };
  } catch (err) {
    if (err instanceof DomainError) {
      const urlError = webhookUrlMessage(err.message);
      return urlError ? { urlError } : { error: err.message };
    }
    throw err;
  }
}

/** Removes an endpoint (confirmed in the browser first). */
export async function deleteWebhookAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/settings/webhooks"], async (actor) => {
    await deleteWebhook(actor, Number(form.get("id")));
    return { ok: "The endpoint was deleted." };
  });
}

/** Sends a `webhook.test` event. */
export async function testWebhookAction(form: FormData): Promise<void> {
  await sendTestWebhook(await getActor(), Number(form.get("id")));
  revalidatePath("/settings/webhooks");
}

/** Re-enables a disabled endpoint or disables an enabled one. */
export async function toggleWebhookAction(form: FormData): Promise<void> {
  await updateWebhook(await getActor(), Number(form.get("id")), { enabled: form.get("enable") === "1" });
  revalidatePath("/settings/webhooks");
}
