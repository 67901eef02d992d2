/**
 * The job outbox's dispatcher (issue 14). Writes enqueue their jobs in their own transaction into
 * the `job_outbox` table (`checkin_enqueue_job`, migration 20261125013000_job_outbox; from TS
 * through lib/jobs/enqueue.ts), not with `graphile_worker.add_job`: add_job notifies, and a
 * PostgreSQL transaction that notifies holds the one notification-queue lock from its commit until
 * its commit record is flushed to disk, so every write that enqueued a job used to commit after the
 * previous one's WAL flush (on the development machine, 16 concurrent report submissions without a
 * worker: 706–869 per second, 1,275–1,539 through the outbox; docs/scaling.md).
 *
 * Each job runner moves the outbox to graphile-worker (`checkin_dispatch_jobs`: oldest first,
 * through `graphile_worker.add_jobs` with the keys' semantics of `add_job`, and the rows deleted,
 * in one transaction, so a job is handed over exactly once; rows another runner holds are
 * skipped). It runs again at once while batches come back full, after `BUSY_MS` when some rows
 * moved, and otherwise after a pause that doubles from `IDLE_MIN_MS` to `IDLE_MAX_MS`
 * (milliseconds): a job waits at most about `IDLE_MAX_MS` in the outbox once the system has been
 * idle, and one notifying commit carries a whole batch under load.
 */
import type pg from "pg";
import type { JobLog } from "@/lib/jobs/tasks";

/** Rows moved per dispatch transaction. */
export const DISPATCH_BATCH = 200;
/** Pause after a dispatch that moved some rows but not a full batch (ms). */
const BUSY_MS = 10;
/** First and longest pause after a dispatch that found nothing (ms). */
const IDLE_MIN_MS = 10;
const IDLE_MAX_MS = 200;
/** Pause after a failed dispatch (ms), e.g. while PostgreSQL restarts. */
const ERROR_MS = 1000;

/** Anything with pg's `query(text, values)`: a pool or a client. */
type Queryable = Pick<pg.Pool, "query">;

/**
 * Moves up to `max` outbox rows to graphile-worker in one transaction.
 * @returns the number of jobs handed over. @throws database errors (nothing is moved then).
 */
export async function dispatchOutbox(client: Queryable, max = DISPATCH_BATCH): Promise<number> {
  const { rows } = await client.query<{ moved: number }>("SELECT checkin_dispatch_jobs($1::int) AS moved", [max]);
  return rows[0]?.moved ?? 0;
}

/**
 * Runs `dispatchOutbox` on `pool` until stopped (see the module comment for its pace). A failure is
 * logged once per distinct message and retried after `ERROR_MS`.
 * @returns `stop()`, which resolves after the dispatch in progress, if any, has ended.
 */
export function startOutboxDispatcher(pool: Queryable, log: JobLog): { stop: () => Promise<void> } {
  let stopped = false;
  let lastError = "";
  // The pause in progress: `wake` ends it early (on stop).
  const sleeping: { wake?: () => void } = {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      sleeping.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = async () => {
    let idle = IDLE_MIN_MS;
    while (!stopped) {
      let wait: number;
      try {
        const moved = await dispatchOutbox(pool);
        lastError = "";
        if (moved >= DISPATCH_BATCH) continue;
        wait = moved > 0 ? BUSY_MS : idle;
        idle = moved > 0 ? IDLE_MIN_MS : Math.min(idle * 2, IDLE_MAX_MS);
      } catch (err) {
        const message = (err as Error)?.message ?? String(err);
        if (message !== lastError && !stopped) log(`job outbox: dispatch failed: ${message}`);
        lastError = message;
        wait = ERROR_MS;
      }
      if (!stopped) await pause(wait);
    }
  };
  const running = loop();
  return {
    stop: () => {
      stopped = true;
      sleeping.wake?.();
      return running;
    },
  };
}
