"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/session";
import { retryFailedMessage, retryFailedWebhookDelivery } from "@/lib/chat/retry";
import { DomainError } from "@/lib/domain/errors";

/**
 * Runs a retry; a domain refusal (already retried by someone else, endpoint disabled) only
 * refreshes the page, which then shows the current state.
 */
async function retry(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
  }
  revalidatePath("/settings/system");
}

/** Puts a failed chat message back in the delivery queue (Settings → System; team admins). */
export async function retryChatDeliveryAction(form: FormData): Promise<void> {
  const actor = await getActor();
  await retry(() => retryFailedMessage(actor, Number(form.get("messageId"))));
}

/** Puts a failed webhook delivery back in the delivery queue (Settings → System; team admins). */
export async function retryWebhookDeliveryAction(form: FormData): Promise<void> {
  const actor = await getActor();
  await retry(() => retryFailedWebhookDelivery(actor, Number(form.get("deliveryId"))));
}
