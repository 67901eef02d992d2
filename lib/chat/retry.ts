/**
 * Retrying a failed delivery (issue 9 "Delivery state is visible"): a team admin — or, for a
 * message about a standup, that standup's creator (who may edit it, `canEditStandup`) — puts a
 * `failed` message back to `pending` with a fresh attempt count; the enqueueing trigger gives it a
 * new delivery job in the same transaction. Used by the Channels page and the standup page.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";

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
