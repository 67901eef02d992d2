/**
 * Worker heartbeats and the locks of dead workers (issue 40, table `worker_heartbeats`).
 *
 * graphile-worker 0.17 locks a job with its pool's id (`locked_by`, "pool-<hex>") and releases
 * the locks of a pool that died only after 4 hours (lib/jobs/delivery.ts `recoverStaleLocks`
 * shortens that to 2 minutes for delivery jobs). Each running pool here keeps one row
 * (`startHeartbeat`): its id, the PID and host of its process, and `beat_at`, renewed every
 * `HEARTBEAT_INTERVAL_MS`. A worker that starts (and `schedule_tick` every minute) calls
 * `recoverDeadWorkers`: a pool whose process is gone (same host, no such PID) or whose heartbeat
 * is older than `HEARTBEAT_STALE_SECONDS` is dead, so its locks are released at once through
 * graphile-worker's `force_unlock_workers` (the SQL of `WorkerUtils.forceUnlockWorkers`) and its
 * row removed.
 */
import os from "node:os";
import type { Db } from "@/lib/db";
import type { JobLog } from "@/lib/jobs/tasks";

/** Milliseconds between two heartbeats of a running pool. */
export const HEARTBEAT_INTERVAL_MS = 10_000;

/** Seconds without a heartbeat after which a pool counts as dead on any host. */
export const HEARTBEAT_STALE_SECONDS = 30;

/** True when a process with this PID exists on this host (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Writes the heartbeat row of pool `workerId` (this process's PID and host) now and every
 * `HEARTBEAT_INTERVAL_MS`. A failed beat is logged once per outage and retried at the next one.
 * @returns `stop()`, which ends the beats and deletes the row (errors ignored: a row left behind is
 * recognised as dead later).
 */
export async function startHeartbeat(db: Db, workerId: string, log: JobLog): Promise<{ stop: () => Promise<void> }> {
  const host = os.hostname();
  const beat = () => db.$executeRaw`
    INSERT INTO worker_heartbeats (worker_id, pid, host) VALUES (${workerId}, ${process.pid}, ${host})
    ON CONFLICT (worker_id) DO UPDATE SET beat_at = now()`;
  await beat();
  let failing = false;
  const timer = setInterval(() => {
    beat().then(
      () => {
        failing = false;
      },
      (err: unknown) => {
        if (!failing) log(`worker heartbeat: ${(err as Error)?.message ?? err}`);
        failing = true;
      },
    );
  }, HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await db.$executeRaw`DELETE FROM worker_heartbeats WHERE worker_id = ${workerId}`.catch(() => {});
    },
  };
}

/**
 * Releases the job locks of every dead pool (see the module comment) and forgets them.
 * @param opts.staleSeconds heartbeat age that counts as dead (default HEARTBEAT_STALE_SECONDS).
 * @returns the pool ids released. @throws what the database throws.
 */
export async function recoverDeadWorkers(db: Db, log: JobLog, opts: { staleSeconds?: number } = {}): Promise<string[]> {
  const stale = opts.staleSeconds ?? HEARTBEAT_STALE_SECONDS;
  const rows = await db.$queryRaw<Array<{ worker_id: string; pid: number; host: string; stale: boolean }>>`
    SELECT worker_id, pid, host, beat_at < now() - make_interval(secs => ${stale}) AS stale FROM worker_heartbeats`;
  const host = os.hostname();
  const dead = rows.filter((r) => r.stale || (r.host === host && r.pid !== process.pid && !processAlive(r.pid)));
  if (!dead.length) return [];
  const ids = dead.map((r) => r.worker_id);
  await db.$executeRaw`SELECT graphile_worker.force_unlock_workers(${ids}::text[])`;
  await db.$executeRaw`DELETE FROM worker_heartbeats WHERE worker_id = ANY(${ids}::text[])`;
  const why = dead.map((r) => `${r.worker_id} (pid ${r.pid} on ${r.host}: ${r.stale ? "no heartbeat" : "process gone"})`);
  log(`worker: released the job locks of ${ids.length} dead worker(s): ${why.join(", ")}`);
  return ids;
}
