/**
 * Retrying a failed delivery (issue 9 "Delivery state is visible"): a team admin puts a `failed`
 * message back to `pending` with a fresh attempt count; the enqueueing trigger gives it a new
 * delivery job in the same transaction.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";

/** @throws NotFoundError when the actor is not an admin or no failed message of their team has this id. */
export async function retryFailedMessage(actor: Actor, messageId: number, tx: Tx = db): Promise<void> {
  if (!actor.isAdmin || !Number.isInteger(messageId)) throw new NotFoundError("Message");
  const r = await tx.chatMessage.updateMany({
    where: { id: messageId, team_id: actor.teamId, delivery_state: "failed" },
    data: { delivery_state: "pending", delivery_attempts: 0, delivery_error: null },
  });
  if (r.count === 0) throw new NotFoundError("Message");
}
