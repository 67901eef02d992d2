/**
 * Enqueues a graphile-worker job with plain SQL (`graphile_worker.add_job`) on the caller's
 * transaction client, so the job exists exactly when the data that asked for it does (outbox rule).
 *
 * When graphile-worker's schema is not there yet (a database the worker has never started on, e.g.
 * some test databases) the job is skipped and `false` returned: every job enqueued through here
 * has a periodic sweep that finds the work it was for (lib/jobs/categorize.ts).
 */
import type { Tx } from "@/lib/db";

/** Options of one job. `runAt`: UTC instant (default now). `jobKeyMode`: graphile-worker's modes. */
export type EnqueueOptions = {
  jobKey: string;
  runAt?: Date;
  maxAttempts?: number;
  /** "replace" (debounce: push run_at), "preserve_run_at" (keep an earlier due time), "unsafe_dedupe". */
  jobKeyMode?: "replace" | "preserve_run_at" | "unsafe_dedupe";
};

let schemaReady = false;

/**
 * Adds (or re-keys) a job. @returns true when enqueued, false when the queue schema is absent.
 * @throws database errors (the caller's transaction then rolls back).
 */
export async function enqueueJob(tx: Tx, task: string, payload: Record<string, unknown>, opts: EnqueueOptions): Promise<boolean> {
  if (!schemaReady) {
    const rows = await tx.$queryRaw<
      Array<{ ok: boolean }>
    >`SELECT to_regprocedure('graphile_worker.add_job(text, json, text, timestamptz, integer, text, integer, text[], text)') IS NOT NULL AS ok`;
    if (!rows[0]?.ok) return false;
    schemaReady = true;
  }
  await tx.$executeRaw`SELECT graphile_worker.add_job(
    identifier := ${task}::text,
    payload := ${JSON.stringify(payload)}::json,
    run_at := ${opts.runAt ?? new Date()}::timestamptz,
    max_attempts := ${opts.maxAttempts ?? 25}::int,
    job_key := ${opts.jobKey}::text,
    job_key_mode := ${opts.jobKeyMode ?? "replace"}::text
  )`;
  return true;
}
