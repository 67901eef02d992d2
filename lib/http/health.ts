/**
 * Health endpoints (issue 44; README "Health and metrics"): `GET /healthz` — the process serves
 * (never touches the database) — and `GET /readyz` — the database answers, its migrations match
 * this version's `prisma/migrations`, and, when job workers have reported, one of them beat
 * recently (`worker_heartbeats`, issue 40; a database without that table gives "no worker info").
 * Unauthenticated, not rate limited, skipped by proxy.ts; each /readyz costs two small queries.
 */
import { db, type Tx } from "@/lib/db";
import { HEARTBEAT_STALE_SECONDS } from "@/lib/jobs/heartbeat";
import { listMigrationNames, migrationDrift } from "@/lib/runtime/migrate";

/** Seconds without a heartbeat after which a worker counts as not running (the worker's own rule, lib/jobs/heartbeat.ts). */
export const WORKER_STALE_SECONDS = HEARTBEAT_STALE_SECONDS;

/** Longest wait for the database, in ms: a hung database answers 503 instead of hanging the probe. */
const TIMEOUT_MS = 3000;

export type ReadyChecks = {
  database: { ok: boolean; error?: string };
  migrations: { ok: boolean; pending?: string[]; unknown?: string[] };
  worker: { ok: boolean; workers?: number; fresh?: number; info?: string };
};

export type Readiness = { ready: boolean; failed: string[]; checks: ReadyChecks };

let localMigrations: string[] | null = null;

/** `GET /healthz` body: the process is up. */
export function liveness(): { status: "ok"; pid: number; uptime_seconds: number } {
  return { status: "ok", pid: process.pid, uptime_seconds: Math.round(process.uptime()) };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs the readiness checks (see the module comment).
 * @param opts.migrations this version's migration names (default: read once from prisma/migrations).
 */
export async function readiness(opts: { client?: Tx; migrations?: string[]; timeoutMs?: number } = {}): Promise<Readiness> {
  const client = opts.client ?? db;
  localMigrations ??= opts.migrations ? null : listMigrationNames();
  const local = opts.migrations ?? (localMigrations as string[]);
  const checks: ReadyChecks = {
    database: { ok: false },
    migrations: { ok: false },
    worker: { ok: false },
  };
  try {
    const rows = await withTimeout(
      client.$queryRaw<Array<{ applied: string[] | null; heartbeats: boolean }>>`
        SELECT (SELECT array_agg(migration_name::text) FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL) AS applied,
               to_regclass('worker_heartbeats') IS NOT NULL AS heartbeats`,
      opts.timeoutMs ?? TIMEOUT_MS,
    );
    checks.database = { ok: true };
    const drift = migrationDrift(rows[0].applied ?? [], local);
    checks.migrations = drift.pending.length || drift.unknown.length ? { ok: false, ...drift } : { ok: true };
    if (rows[0].heartbeats) {
      const beats = await withTimeout(
        client.$queryRaw<Array<{ workers: number; fresh: number }>>`
          SELECT count(*)::int AS workers,
                 count(*) FILTER (WHERE beat_at > now() - make_interval(secs => ${WORKER_STALE_SECONDS}))::int AS fresh
          FROM worker_heartbeats`,
        opts.timeoutMs ?? TIMEOUT_MS,
      );
      const { workers, fresh } = beats[0];
      checks.worker = workers === 0 ? { ok: true, workers, info: "no worker has reported" } : { ok: fresh > 0, workers, fresh };
    } else {
      checks.worker = { ok: true, info: "no worker info" };
    }
  } catch (err) {
    const e = err as { message?: string; code?: string; cause?: { code?: string; message?: string } };
    const message = (e?.message || e?.cause?.message || e?.code || e?.cause?.code || "no answer")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1);
    if (!checks.database.ok) checks.database = { ok: false, error: message };
    else checks.worker = { ok: false, info: message };
  }
  const failed = (Object.keys(checks) as Array<keyof ReadyChecks>).filter((k) => !checks[k].ok);
  return { ready: failed.length === 0, failed, checks };
}
