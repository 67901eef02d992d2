/**
 * Retrying a failed delivery (issue 9 "Delivery state is visible"): a team admin — or, for a
 * message about a standup, that standup's creator (who may edit it, `canEditStandup`) — puts a
 * `failed` message back to `pending` with a fresh attempt count; the enqueueing trigger gives it a
 * new delivery job in the same transaction. Used by the Channels page, the standup page and
 * Settings → System, which also retries failed webhook deliveries (`retryFailedWebhookDelivery`).
 */
import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** @throws NotFoundError when no failed message of the actor's team with this id is theirs to retry (admin: any; others: messages of standups they created). */
export async function retryFailedMessage(actor: Actor, messageId: number, tx: Tx = db): Promise<void> {
  if (!Number.isInteger(messageId)) throw new NotFoundError("Message");
  const r = await tx.chatMessage.updateMany({
    where: {
      id: messageId,
      team_id: actor.teamId,
      delivery_state: "failed",
      ...(actor.isAdmin ? {} : { checkin: { owner_id: actor.userId, team_id: actor.teamId } }),
    },
    data: { delivery_state: "pending", delivery_attempts: 0, delivery_error: null },
  });
  if (r.count === 0) throw new NotFoundError("Message");
}

/**
 * Retries a `failed` webhook delivery of the actor's team (issue 44, Settings → System): back to
 * `pending` with no attempts, no error and no wait, and a new `deliver_webhook` job (same job key
 * and attempts as the first one, lib/domain/webhook-events.ts `enqueueDelivery`) in the same transaction.
 * The delivery keeps its `webhook-id`, so a receiver that got it before can de-duplicate it.
 * @throws ForbiddenError when `actor` is not a team admin; NotFoundError when no failed delivery of
 * the team has this id; ConflictError when its endpoint is disabled (enable it first).
 */
export async function retryFailedWebhookDelivery(actor: Actor, deliveryId: number, tx?: Tx): Promise<void> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can retry webhook deliveries.");
  if (!Number.isInteger(deliveryId)) throw new NotFoundError("Webhook delivery");
  await inTransaction(tx, async (t) => {
    const d = await t.webhookDelivery.findFirst({
      where: { id: deliveryId, team_id: actor.teamId, state: "failed" },
      select: { id: true, endpoint: { select: { disabled_at: true } } },
    });
    if (!d) throw new NotFoundError("Webhook delivery");
    if (d.endpoint.disabled_at) throw new ConflictError("The webhook endpoint is disabled: enable it before retrying its deliveries.");
    const r = await t.webhookDelivery.updateMany({
      where: { id: d.id, state: "failed" },
      data: { state: "pending", attempts: 0, last_error: null, last_status_code: null, next_attempt_at: null },
    });
    if (r.count === 0) throw new NotFoundError("Webhook delivery");
    await enqueueJob(t, "deliver_webhook", { deliveryId: d.id }, { jobKey: `webhook_delivery:${d.id}`, maxAttempts: 25 });
  });
}
