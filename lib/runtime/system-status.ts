/**
 * What Settings → System shows a team admin about the running service (issue 44): version and
 * commit, uptime of this web process, database size, migrations, job workers' heartbeat and the
 * job queue by task, the team's failed chat and webhook deliveries of the last 24 hours (retried
 * with lib/chat/retry.ts), the last base backup and the backup folder's size, and the restore
 * command. One call, a handful of small queries plus a directory listing of the backup folder.
 * Instance-wide facts (database, jobs, backups) are the same for every team; the failed deliveries
 * are the actor's team's only.
 */
import path from "node:path";
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ForbiddenError } from "@/lib/domain/errors";
import { backupDir } from "@/lib/env";
import { HEARTBEAT_STALE_SECONDS } from "@/lib/jobs/heartbeat";
import pkg from "@/package.json";
import { folderBytes, listBaseBackups, walArchiveDir } from "./backup";
import { listMigrationNames, migrationDrift } from "./migrate";
import { runningCommit } from "./version";

/** How far back failed deliveries are listed, in hours. */
export const FAILED_DELIVERY_WINDOW_HOURS = 24;
/** At most this many failed deliveries of each kind are listed (the counts are exact). */
const LIST_LIMIT = 50;
/** The page of a failed-deliveries list: the most recently failed first, at most LIST_LIMIT. */
const NEWEST_FAILURES = { orderBy: [{ updated_at: "desc" as const }, { id: "desc" as const }], take: LIST_LIMIT };

export type JobCount = { task: string; queued: number; running: number; failed: number };
export type FailedChatDelivery = {
  id: number;
  createdAt: Date;
  failedAt: Date;
  where: string;
  checkinName: string | null;
  error: string | null;
};
export type FailedWebhookDelivery = {
  id: number;
  endpointUrl: string;
  eventType: string;
  attempts: number;
  failedAt: Date;
  error: string | null;
  endpointDisabled: boolean;
};

export type SystemStatus = {
  version: string;
  commit: string | null;
  uptimeSeconds: number;
  database: { bytes: number; walArchiving: boolean };
  migrations: { applied: number; latest: string | null; pending: string[]; unknown: string[] };
  workers: { total: number; fresh: number; lastBeatAt: Date | null };
  jobs: JobCount[];
  /** Jobs written but not yet handed to graphile-worker (the job outbox, lib/jobs/enqueue.ts). */
  jobOutbox: number;
  failedChat: { count: number; rows: FailedChatDelivery[] };
  failedWebhooks: { count: number; rows: FailedWebhookDelivery[] };
  backups: {
    dir: string;
    count: number;
    last: { name: string; finishedAt: string; bytes: number; seconds: number } | null;
    /** Base backups plus WAL archive, in bytes. */
    totalBytes: number;
    walBytes: number;
  };
  restoreCommand: string;
};

/** graphile-worker's jobs by task: queued (waiting), running (locked) and failed (out of attempts). */
export async function jobCountsByTask(client: Tx = db): Promise<JobCount[]> {
  const rows = await client.$queryRaw<Array<{ task: string; queued: number; running: number; failed: number }>>`
    SELECT task_identifier AS task,
           count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts)::int AS queued,
           count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS running,
           count(*) FILTER (WHERE locked_at IS NULL AND attempts >= max_attempts)::int AS failed
    FROM graphile_worker.jobs GROUP BY 1 ORDER BY 1`;
  return rows;
}

/** The team's chat messages that failed in the last 24 h (newest first, at most LIST_LIMIT) and their count. */
async function failedChatDeliveries(teamId: number, since: Date, client: Tx): Promise<SystemStatus["failedChat"]> {
  const where = { team_id: teamId, delivery_state: "failed" as const, deleted_at: null, updated_at: { gt: since } };
  const [count, rows] = await Promise.all([
    client.chatMessage.count({ where }),
    client.chatMessage.findMany({
      where,
      ...NEWEST_FAILURES,
      select: {
        id: true,
        created_at: true,
        updated_at: true,
        delivery_error: true,
        channel: { select: { name: true } },
        recipient: { select: { realname: true } },
        checkin: { select: { name: true } },
      },
    }),
  ]);
  return {
    count,
    rows: rows.map((m) => ({
      id: m.id,
      createdAt: m.created_at,
      failedAt: m.updated_at,
      where: m.channel ? `#${m.channel.name}` : m.recipient ? `Direct message to ${m.recipient.realname}` : "—",
      checkinName: m.checkin?.name ?? null,
      error: m.delivery_error,
    })),
  };
}

/** The team's webhook deliveries that failed in the last 24 h (newest first, at most LIST_LIMIT) and their count. */
async function failedWebhookDeliveries(teamId: number, since: Date, client: Tx): Promise<SystemStatus["failedWebhooks"]> {
  const where = { team_id: teamId, state: "failed" as const, updated_at: { gt: since } };
  const [count, rows] = await Promise.all([
    client.webhookDelivery.count({ where }),
    client.webhookDelivery.findMany({
      where,
      ...NEWEST_FAILURES,
      select: {
        id: true,
        event_type: true,
        attempts: true,
        updated_at: true,
        last_error: true,
        endpoint: { select: { url: true, disabled_at: true } },
      },
    }),
  ]);
  return {
    count,
    rows: rows.map((d) => ({
      id: d.id,
      endpointUrl: d.endpoint.url,
      eventType: d.event_type,
      attempts: d.attempts,
      failedAt: d.updated_at,
      error: d.last_error,
      endpointDisabled: d.endpoint.disabled_at !== null,
    })),
  };
}

/** The backup folder's last base backup and sizes (lib/runtime/backup.ts). */
function backupSummary(dir: string): SystemStatus["backups"] {
  const all = listBaseBackups(dir);
  const last = all.at(-1);
  const walBytes = folderBytes(walArchiveDir(dir));
  return {
    dir,
    count: all.length,
    last: last ? { name: last.name, finishedAt: last.finished_at, bytes: last.bytes, seconds: last.seconds } : null,
    totalBytes: all.reduce((n, b) => n + b.bytes, 0) + walBytes,
    walBytes,
  };
}

/**
 * The state Settings → System shows (see the module comment).
 * @param opts.now the clock (tests); opts.backupDir the backup folder (default `backupDir()`);
 *   opts.migrations this version's migration names (default: prisma/migrations).
 * @throws ForbiddenError when `actor` is not a team admin.
 */
export async function systemStatus(
  actor: Actor,
  opts: { client?: Tx; now?: Date; backupDir?: string; migrations?: string[] } = {},
): Promise<SystemStatus> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can see the state of the service.");
  const client = opts.client ?? db;
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - FAILED_DELIVERY_WINDOW_HOURS * 3600_000);
  const [facts, jobs, failedChat, failedWebhooks] = await Promise.all([
    client.$queryRaw<
      Array<{ bytes: bigint; archiving: string; applied: string[] | null; outbox: number; total: number; fresh: number; last: Date | null }>
    >`
      SELECT pg_database_size(current_database()) AS bytes,
             current_setting('archive_mode') AS archiving,
             (SELECT array_agg(migration_name::text ORDER BY migration_name) FROM "_prisma_migrations"
               WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL) AS applied,
             (SELECT count(*)::int FROM job_outbox) AS outbox,
             (SELECT count(*)::int FROM worker_heartbeats) AS total,
             (SELECT count(*)::int FROM worker_heartbeats WHERE beat_at > ${now}::timestamptz - make_interval(secs => ${HEARTBEAT_STALE_SECONDS})) AS fresh,
             (SELECT max(beat_at) FROM worker_heartbeats) AS last`,
    jobCountsByTask(client),
    failedChatDeliveries(actor.teamId, since, client),
    failedWebhookDeliveries(actor.teamId, since, client),
  ]);
  const f = facts[0];
  const applied = f.applied ?? [];
  const drift = migrationDrift(applied, opts.migrations ?? listMigrationNames());
  const dir = opts.backupDir ?? backupDir();
  return {
    version: pkg.version,
    commit: runningCommit(),
    uptimeSeconds: Math.round(process.uptime()),
    database: { bytes: Number(f.bytes), walArchiving: f.archiving === "on" || f.archiving === "always" },
    migrations: { applied: applied.length, latest: applied.at(-1) ?? null, pending: drift.pending, unknown: drift.unknown },
    workers: { total: f.total, fresh: f.fresh, lastBeatAt: f.last },
    jobs,
    jobOutbox: f.outbox,
    failedChat,
    failedWebhooks,
    backups: backupSummary(dir),
    restoreCommand: restoreCommandLine(dir, now),
  };
}

/**
 * The restore command an operator runs (README "Back up and restore"), with `now` (UTC) as an
 * example target time, and `--from` when the backup folder is not the default one.
 */
export function restoreCommandLine(dir: string, now: Date): string {
  const at = `${now.toISOString().slice(0, 16).replace("T", " ")}Z`;
  const from = path.resolve(dir) === path.resolve(backupDir()) ? "" : ` --from "${dir}"`;
  return `npm run restore -- --at "${at}"${from}`;
}
