/**
 * graphile-worker task handlers (ARCHITECTURE §1 "jobs & schedules"). Each task is idempotent and
 * safe to run on several app instances at once. Quiet by design: a task logs only when it changed
 * something or failed.
 *
 * - `schedule_tick` (crontab: every minute): runs the due standups and polls
 *   (lib/domain/scheduler.ts `runDueOccurrences`).
 * - `cleanup_idempotency` (crontab: hourly at :17): deletes idempotency records past `expires_at`
 *   and rate-limit counters whose window ended more than an hour ago (lib/api/rate-limit.ts).
 * - `categorize_answers`, `summarize_occurrence`, `categorize_sweep` (crontab: every minute):
 *   lib/jobs/categorize.ts.
 */
import type { Task, TaskList } from "graphile-worker";
import type { DeliveryDeps } from "@/lib/chat/delivery";
import { db } from "@/lib/db";
import { runDueOccurrences } from "@/lib/domain/scheduler";
import { categorizeAnswers, categorizeSweep, summarizeOccurrence } from "@/lib/jobs/categorize";
import { deliverChatMessageTask, deliverWebhookTask, recoverStaleLocks } from "@/lib/jobs/delivery";

/** Line logger used by the tasks (lib/jobs/worker.ts passes the process logger). */
export type JobLog = (line: string) => void;

/** Runs every due checkin now. Throws only when the database is unreachable (the job is retried). */
export function scheduleTick(log: JobLog): Task {
  return async () => {
    const result = await runDueOccurrences(new Date());
    if (result.created.length) log(`scheduler: started ${result.created.length} occurrence(s)`);
    for (const e of result.errors) log(`scheduler: checkin ${e.checkinId} failed: ${e.message}`);
  };
}

/** Deletes idempotency records whose `expires_at` is in the past and stale rate-limit counters (database clock). */
export function cleanupIdempotency(log: JobLog): Task {
  return async () => {
    const deleted = await db.$executeRaw`DELETE FROM idempotency_records WHERE expires_at < now()`;
    if (deleted > 0) log(`cleanup: removed ${deleted} expired idempotency record(s)`);
    const counters = await db.$executeRaw`DELETE FROM rate_limits WHERE expire < (extract(epoch FROM now()) * 1000 - 3600000)`;
    if (counters > 0) log(`cleanup: removed ${counters} expired rate-limit counter(s)`);
  };
}

/** The task list registered with the runner, keyed by task identifier. Without `delivery` the
 * delivery tasks (lib/jobs/delivery.ts) are not registered, so this runner leaves their jobs alone. */
export function createTaskList(log: JobLog, delivery: DeliveryDeps | null = null): TaskList {
  const tick = scheduleTick(log);
  return {
    schedule_tick: delivery
      ? async (payload, helpers) => {
          await recoverStaleLocks(delivery.db, log);
          await tick(payload, helpers);
        }
      : tick,
    cleanup_idempotency: cleanupIdempotency(log),
    ...(delivery ? { deliver_chat_message: deliverChatMessageTask(delivery), deliver_webhook: deliverWebhookTask(delivery) } : {}),
    categorize_answers: categorizeAnswers(log),
    summarize_occurrence: summarizeOccurrence(),
    categorize_sweep: categorizeSweep(log),
  };
}

/** The crontab (graphile-worker format: minute hour day month weekday task). Times are UTC. */
export const CRONTAB = ["* * * * * schedule_tick", "17 * * * * cleanup_idempotency", "* * * * * categorize_sweep"].join("\n");
