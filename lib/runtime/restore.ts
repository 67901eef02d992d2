/**
 * Point-in-time restore of the embedded PostgreSQL (issue 44; README "Back up and restore") from
 * the base backups and WAL archive of lib/runtime/backup.ts: builds a new data folder from the
 * newest base backup finished before the target, adds the old folder's not yet archived WAL,
 * writes `restore_command`, `recovery_target_time`, `recovery_target_action = 'promote'` and
 * `recovery.signal`, keeps the old folder aside (`postgres.before-restore-<UTC timestamp>`), then
 * starts PostgreSQL, which replays the WAL up to the target and promotes, and stops it again.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { type BaseBackup, KEPT_FILES, listBaseBackups, restoreCommand, walArchiveDir } from "@/lib/runtime/backup";
import { readLiveLock, startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";

export type RestoreResult = {
  backup: BaseBackup;
  /** Where the previous data folder was kept, or null when there was none. */
  previous: string | null;
  /** Commit time of the last transaction replayed, when PostgreSQL reports it. */
  lastReplayed: string | null;
  /** Seconds: copying the base backup, replaying the WAL (start to promotion), in total. */
  copySeconds: number;
  replaySeconds: number;
  totalSeconds: number;
};

const MARK = "# added by npm run restore";

/** Picks the newest complete base backup finished at or before `at` (the newest of all without `at`). */
export function chooseBaseBackup(backupDir: string, at?: Date): BaseBackup {
  const all = listBaseBackups(backupDir);
  if (all.length === 0) throw new Error(`No base backup in ${backupDir}: take one with npm run backup.`);
  const before = at ? all.filter((b) => new Date(b.finished_at) <= at) : all;
  const chosen = before.at(-1);
  if (!chosen) {
    throw new Error(
      `No base backup finished before ${at?.toISOString()}: the oldest one (${all[0].name}) finished at ${all[0].finished_at}.`,
    );
  }
  return chosen;
}

/** `value` as a postgresql.conf string literal. */
function confString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function owner(pgDir: string): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  if (fs.existsSync(pgDir)) {
    const s = fs.statSync(pgDir);
    return { uid: s.uid, gid: s.gid };
  }
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    return null;
  }
}

function chownTree(dir: string, to: { uid: number; gid: number }): void {
  fs.chownSync(dir, to.uid, to.gid);
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    fs.lchownSync(path.join(e.parentPath, e.name), to.uid, to.gid);
  }
}

/**
 * Restores the embedded database of `dataDir` to `at` (default: the end of the archived WAL).
 * @throws Error when the service runs on this data folder (`server.lock`), when no base backup
 *   fits, or when PostgreSQL cannot replay to the target (the message says where the old folder is).
 */
export async function restoreDatabase(opts: {
  dataDir: string;
  backupDir: string;
  at?: Date;
  log?: (l: string) => void;
}): Promise<RestoreResult> {
  const log = opts.log ?? (() => {});
  const live = readLiveLock(opts.dataDir);
  if (live) {
    throw new Error(
      `The database in ${opts.dataDir} is in use by process ${live.pid} (${live.purpose}): stop the service first, then restore.`,
    );
  }
  const t0 = performance.now();
  const backup = chooseBaseBackup(opts.backupDir, opts.at);
  log(`Using base backup ${backup.name} (finished ${backup.finished_at})`);
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const pgDir = path.join(opts.dataDir, "postgres");
  const fresh = path.join(opts.dataDir, `postgres.restoring-${stamp}`);
  fs.rmSync(fresh, { recursive: true, force: true });
  fs.cpSync(backup.dir, fresh, { recursive: true });
  fs.chmodSync(fresh, 0o700);
  fs.mkdirSync(path.join(fresh, "pg_wal"), { recursive: true, mode: 0o700 });
  // WAL the old server wrote but did not archive yet (the current segment): recovery reads it after the archive.
  let unarchived = 0;
  const oldWal = path.join(pgDir, "pg_wal");
  for (const file of fs.existsSync(oldWal) ? fs.readdirSync(oldWal) : []) {
    if (!/^[0-9A-F]{24}$/.test(file) || file.slice(8) < backup.start_wal.slice(8)) continue; // older than the backup: not needed
    if (fs.existsSync(path.join(walArchiveDir(opts.backupDir), `${file}.gz`))) continue;
    fs.copyFileSync(path.join(oldWal, file), path.join(fresh, "pg_wal", file));
    unarchived++;
  }
  const settings = [
    MARK,
    `restore_command = ${confString(restoreCommand(opts.backupDir))}`,
    ...(opts.at ? [`recovery_target_time = ${confString(opts.at.toISOString().replace("T", " ").replace("Z", "+00"))}`] : []),
    "recovery_target_action = 'promote'",
  ];
  fs.appendFileSync(path.join(fresh, "postgresql.auto.conf"), `\n${settings.join("\n")}\n`);
  fs.writeFileSync(path.join(fresh, "recovery.signal"), "");
  const who = owner(pgDir);
  if (who) chownTree(fresh, who);
  const copySeconds = (performance.now() - t0) / 1000;
  log(`Copied ${backup.name} in ${copySeconds.toFixed(1)} s (+${unarchived} unarchived WAL segment(s) from the old folder)`);

  let previous: string | null = null;
  if (fs.existsSync(pgDir)) {
    previous = path.join(opts.dataDir, `postgres.before-restore-${stamp}`);
    fs.renameSync(pgDir, previous);
    log(`The previous data folder is kept as ${previous}`);
  }
  fs.renameSync(fresh, pgDir);
  // The restored cluster's password (and the service's secret) come with the base backup; a
  // different file already there is kept aside with the old folder's timestamp.
  for (const file of KEPT_FILES) {
    const saved = path.join(path.dirname(backup.dir), file);
    const current = path.join(opts.dataDir, file);
    if (!fs.existsSync(saved)) continue;
    if (fs.existsSync(current)) {
      if (fs.readFileSync(current).equals(fs.readFileSync(saved))) continue;
      fs.renameSync(current, `${current}.before-restore-${stamp}`);
    }
    fs.copyFileSync(saved, current);
    fs.chmodSync(current, 0o600);
  }

  log(opts.at ? `Replaying the WAL up to ${opts.at.toISOString()}…` : "Replaying all the archived WAL…");
  const t1 = performance.now();
  const lines: string[] = [];
  let database: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    database = await startEmbeddedPostgres({
      dir: opts.dataDir,
      purpose: "restore",
      backupDir: opts.backupDir,
      log: (l) => lines.push(l),
    });
  } catch (err) {
    const problems = lines.flatMap((l) => l.split("\n")).filter((l) => /FATAL|PANIC|ERROR|invalid value/.test(l));
    const fatal = problems.slice(-3).join("; ") || lines.at(-1);
    throw new Error(
      `PostgreSQL could not replay to the target${fatal ? ` (${fatal})` : ""}: ${(err as Error).message}. ` +
        `The restored folder is ${pgDir}${previous ? `; the previous one is kept as ${previous} (rename it back to ${pgDir} to undo)` : ""}.`,
    );
  }
  const replaySeconds = (performance.now() - t1) / 1000;
  let lastReplayed: string | null = null;
  try {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ recovering: boolean; last: Date | null }>(
        "SELECT pg_is_in_recovery() AS recovering, pg_last_xact_replay_timestamp() AS last",
      );
      if (rows[0].recovering) throw new Error("PostgreSQL is still in recovery after the restore");
      lastReplayed = rows[0].last?.toISOString() ?? null;
      // The recovery settings served their purpose: drop them from postgresql.auto.conf.
      for (const name of ["restore_command", "recovery_target_time", "recovery_target_action"]) {
        await client.query(`ALTER SYSTEM RESET ${name}`);
      }
    } finally {
      await client.end();
    }
  } finally {
    await database.stop();
  }
  log(`Recovery ended in ${replaySeconds.toFixed(1)} s${lastReplayed ? `; last replayed transaction committed at ${lastReplayed}` : ""}`);
  return { backup, previous, lastReplayed, copySeconds, replaySeconds, totalSeconds: (performance.now() - t0) / 1000 };
}
