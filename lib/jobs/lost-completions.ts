/**
 * Jobs whose end graphile-worker failed to record (issue 40).
 *
 * graphile-worker 0.17 records a job's end (`completeJob`: delete it; `failJob`: unlock it with a
 * backoff) with one statement it does not await. When the database connection of that statement
 * is lost (a PostgreSQL restart, `pg_terminate_backend`, a network cut), the statement's rejection
 * is unhandled (the process policy of lib/runtime/crash-policy.ts logs it) and the job stays
 * locked by this live pool, with its queue: a destination's deliveries would wait for the 2-minute
 * `recoverStaleLocks`, any other job for graphile-worker's 4 hours. (Its batchers, which handle the
 * error, stop the whole runner on it instead: lib/jobs/worker.ts `poolSettled`.)
 *
 * `watchLostCompletions` remembers the jobs this pool ended (runner event `job:complete`) and,
 * every `CHECK_EVERY_MS`, unlocks those ended at least `GRACE_MS` ago that are still locked by
 * the pool and not running again, with their queue: they run again (delivery jobs and the
 * others are written to be run again safely).
 */
import type { Runner } from "graphile-worker";
import type pg from "pg";
import type { JobLog } from "@/lib/jobs/tasks";

/** Milliseconds between two checks. */
const CHECK_EVERY_MS = 2000;
/** Milliseconds after its end before a job still locked counts as lost (its write may be in flight). */
const GRACE_MS = 2000;

/**
 * Starts watching the runner of pool `poolId` (see the module comment). @param pool the worker's pg pool.
 * @returns `stop()`, which ends the watch.
 */
export function watchLostCompletions(runner: Runner, pool: pg.Pool, poolId: () => string | null, log: JobLog): { stop: () => void } {
  const running = new Set<string>();
  let ended = new Map<string, number>();
  const onStart = ({ job }: { job: { id: string } }) => {
    running.add(job.id);
    ended.delete(job.id);
  };
  const onComplete = ({ job }: { job: { id: string } }) => {
    running.delete(job.id);
    ended.set(job.id, Date.now());
  };
  runner.events.on("job:start", onStart);
  runner.events.on("job:complete", onComplete);
  let checking = false;
  const check = async () => {
    const id = poolId();
    if (checking || !id || ended.size === 0) return;
    checking = true;
    const cutoff = Date.now() - GRACE_MS;
    const due = [...ended.entries()].filter(([jobId, at]) => at <= cutoff && !running.has(jobId)).map(([jobId]) => jobId);
    try {
      if (!due.length) return;
      const { rows } = await pool.query<{ id: string }>(
        `WITH j AS (
           UPDATE graphile_worker._private_jobs SET locked_by = NULL, locked_at = NULL
            WHERE locked_by = $1 AND id = ANY($2::bigint[]) RETURNING id, job_queue_id),
         q AS (
           UPDATE graphile_worker._private_job_queues SET locked_by = NULL, locked_at = NULL
            WHERE locked_by = $1 AND id IN (SELECT job_queue_id FROM j) RETURNING id)
         SELECT id::text FROM j`,
        [id, due],
      );
      const keep = new Map<string, number>();
      for (const [jobId, at] of ended) if (at > cutoff || running.has(jobId)) keep.set(jobId, at);
      ended = keep;
      if (rows.length)
        log(
          `worker: released ${rows.length} job(s) whose end could not be recorded (lost connection): ${rows.map((r) => r.id).join(", ")}`,
        );
    } catch {
      // The database is away: try again at the next check with the same jobs.
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      runner.events.off("job:start", onStart);
      runner.events.off("job:complete", onComplete);
    },
  };
}
