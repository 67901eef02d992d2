/**
 * Delivery tasks (issue 9), registered by lib/jobs/tasks.ts:
 * - `deliver_chat_message` {messageId}: lib/chat/delivery.ts `deliverChatMessage`; transient
 *   failures are thrown so graphile-worker retries with its exponential backoff (max_attempts 10,
 *   set by the enqueueing trigger); a platform's Retry-After beyond what the adapter waits in place
 *   re-schedules the job at that time without spending an attempt.
 * - `deliver_webhook` {deliveryId}: one attempt of lib/chat/webhooks.ts; a retry is a new run of
 *   the same job key at the time the retry schedule says.
 * - `recoverStaleLocks`: jobs of these tasks locked for over 2 minutes belong to a worker that
 *   died (a delivery takes seconds); their workers' locks are released so another worker picks
 *   them up (graphile-worker itself waits 4 hours). Run at start-up and every minute.
 */
import type { Task } from "graphile-worker";
import { type DeliveryDeps, deliverChatMessage } from "@/lib/chat/delivery";
import { sendWebhookDelivery } from "@/lib/chat/webhooks";
import type { Db } from "@/lib/db";
import type { JobLog } from "@/lib/jobs/tasks";

export const DELIVERY_TASKS = ["deliver_chat_message", "deliver_webhook"] as const;

export function deliverChatMessageTask(deps: DeliveryDeps): Task {
  return async (payload, helpers) => {
    const messageId = Number((payload as { messageId?: unknown })?.messageId);
    if (!Number.isInteger(messageId)) return;
    const outcome = await deliverChatMessage(deps, messageId, { attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
    if (outcome.result === "failed") deps.log(`delivery: message ${messageId} failed: ${outcome.error}`);
    if (outcome.result !== "retry") return;
    if (outcome.afterSeconds !== undefined) {
      await helpers.addJob(
        "deliver_chat_message",
        { messageId },
        {
          jobKey: `chat_message:${messageId}`,
          queueName: outcome.queue,
          runAt: new Date(Date.now() + outcome.afterSeconds * 1000),
          maxAttempts: helpers.job.max_attempts,
        },
      );
      return;
    }
    throw new Error(outcome.error);
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
      AND t.identifier IN ('deliver_chat_message', 'deliver_webhook')`;
  const ids = rows.map((r) => r.locked_by);
  if (ids.length) {
    await db.$executeRaw`SELECT graphile_worker.force_unlock_workers(${ids}::text[])`;
    log(`delivery: released the job locks of ${ids.length} worker(s) that stopped mid-delivery`);
  }
  return ids;
}
