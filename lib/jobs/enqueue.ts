/**
 * Enqueues a job on the caller's transaction client, so the job exists exactly when the data that
 * asked for it does (outbox rule): a row of the job outbox (`checkin_enqueue_job`, migration
 * 20261125013000_job_outbox) that the job runner hands to graphile-worker (lib/jobs/outbox.ts).
 * The options are graphile-worker `add_job`'s and keep their meaning there.
 */
import type { Tx } from "@/lib/db";

/** Options of one job. `runAt`: UTC instant (default: the transaction's time). `jobKeyMode`: graphile-worker's modes. */
export type EnqueueOptions = {
  jobKey: string;
  runAt?: Date;
  maxAttempts?: number;
  /** "replace" (debounce: push run_at), "preserve_run_at" (keep an earlier due time), "unsafe_dedupe". */
  jobKeyMode?: "replace" | "preserve_run_at" | "unsafe_dedupe";
};

/**
 * Adds (or re-keys, once handed over) a job of task `task` with JSON `payload`.
 * @throws database errors (the caller's transaction then rolls back).
 */
export async function enqueueJob(tx: Tx, task: string, payload: Record<string, unknown>, opts: EnqueueOptions): Promise<void> {
  await tx.$executeRaw`SELECT checkin_enqueue_job(
    identifier := ${task}::text,
    payload := ${JSON.stringify(payload)}::json,
    run_at := ${opts.runAt ?? null}::timestamptz,
    max_attempts := ${opts.maxAttempts ?? 25}::int,
    job_key := ${opts.jobKey}::text,
    job_key_mode := ${opts.jobKeyMode ?? "replace"}::text
  )`;
}
