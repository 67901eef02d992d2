/**
 * Delivery tasks (issue 9), registered by lib/jobs/tasks.ts:
 * - `deliver_chat_destination` {destination}: lib/chat/destination-drain.ts `drainDestination`,
 *   enqueued by the trigger of every message that becomes pending (one job per destination). What
 *   the drain leaves is scheduled here: Retry-After re-schedules the destination's own job at that
 *   time (`replace`: messages arriving meanwhile wait too); a message in backoff gets a second job
 *   of the destination (`chat_destination_retry:<destination>`) at its due time, so the first one
 *   stays free for new messages; a full batch re-enqueues the destination at once.
 * - `deliver_chat_message` {messageId}: jobs queued before migration `*_delivery_by_destination`;
 *   drains that message's destination.
 * - `deliver_webhook` {deliveryId}: one attempt of lib/chat/webhooks.ts; a retry is a new run of
 *   the same job key at the time the retry schedule says.
 * - `recoverStaleLocks`: jobs of these tasks locked for over 2 minutes belong to a worker that
 *   died (a delivery takes seconds); their workers' locks are released so another worker picks
 *   them up (graphile-worker itself waits 4 hours). Run at start-up and every minute.
 */
import type { JobHelpers, Task } from "graphile-worker";
import type { DeliveryDeps } from "@/lib/chat/delivery";
import { type Destination, destinationJob, destinationOf, drainDestination } from "@/lib/chat/destination-drain";
import { sendWebhookDelivery } from "@/lib/chat/webhooks";
import type { Db } from "@/lib/db";
import type { JobLog } from "@/lib/jobs/tasks";

export const DELIVERY_TASKS = ["deliver_chat_destination", "deliver_chat_message", "deliver_webhook"] as const;

/** Drains one destination and schedules what it left (see the module comment). */
async function drainAndSchedule(deps: DeliveryDeps, destination: Destination, helpers: JobHelpers): Promise<void> {
  const outcome = await drainDestination(deps, destination);
  if (!outcome.next) return;
  const job = destinationJob(destination);
  const retry = outcome.next.kind === "retry";
  await helpers.addJob("deliver_chat_destination", job.payload, {
    jobKey: retry ? `chat_destination_retry:${destination}` : job.jobKey,
    jobKeyMode: "replace",
    queueName: job.queueName,
    runAt: outcome.next.kind === "more" ? new Date() : outcome.next.at,
    maxAttempts: helpers.job.max_attempts,
  });
}

export function deliverChatDestinationTask(deps: DeliveryDeps): Task {
  return async (payload, helpers) => {
    const destination = (payload as { destination?: unknown })?.destination;
    if (typeof destination !== "string") return;
    await drainAndSchedule(deps, destination, helpers);
  };
}

export function deliverChatMessageTask(deps: DeliveryDeps): Task {
  return async (payload, helpers) => {
    const messageId = Number((payload as { messageId?: unknown })?.messageId);
    if (!Number.isInteger(messageId) || messageId < 1 || messageId > 2_147_483_647) return;
    const m = await deps.db.chatMessage.findUnique({
      where: { id: messageId },
      select: { id: true, channel_id: true, recipient_id: true },
    });
    if (m) await drainAndSchedule(deps, destinationOf(m), helpers);
  };
}

export function deliverWebhookTask(deps: DeliveryDeps): Task {
  return async (payload, helpers) => {
    const deliveryId = Number((payload as { deliveryId?: unknown })?.deliveryId);
    if (!Number.isInteger(deliveryId)) return;
    const outcome = await sendWebhookDelivery(deps.db, deliveryId, {
      retryDelays: deps.config.webhookRetryDelays,
      allowPrivate: deps.config.webhooksAllowPrivate,
    });
    if (outcome.result === "failed") deps.log(`webhooks: delivery ${deliveryId} failed: ${outcome.error}`);
    if (outcome.result === "retry") {
      await helpers.addJob(
        "deliver_webhook",
        { deliveryId },
        {
          jobKey: `webhook_delivery:${deliveryId}`,
          runAt: new Date(Date.now() + outcome.afterSeconds * 1000),
          maxAttempts: 25,
        },
      );
    }
  };
}

/** Releases the locks of workers that hold a delivery job for over `olderThanSeconds` (default 2 minutes; see module comment). @returns the worker ids released. */
export async function recoverStaleLocks(db: Db, log: JobLog, olderThanSeconds = 120): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ locked_by: string }>>`
    SELECT DISTINCT j.locked_by FROM graphile_worker._private_jobs j
    JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE j.locked_by IS NOT NULL AND j.locked_at < now() - make_interval(secs => ${olderThanSeconds})
      AND t.identifier = ANY(${[...DELIVERY_TASKS]}::text[])`;
  const ids = rows.map((r) => r.locked_by);
  if (ids.length) {
    await db.$executeRaw`SELECT graphile_worker.force_unlock_workers(${ids}::text[])`;
    log(`delivery: released the job locks of ${ids.length} worker(s) that stopped mid-delivery`);
  }
  return ids;
}
