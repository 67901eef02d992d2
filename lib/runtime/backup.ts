/**
 * Backups of the embedded PostgreSQL with PostgreSQL's own mechanisms (issue 44; README "Back up
 * and restore"): continuous WAL archiving (`archive_mode=on`, `archiveFlags`) into
 * `<backup dir>/wal/` (gzip-compressed segments), plus base backups taken through the low-level
 * backup API (`pg_backup_start`, copy of the data folder, `pg_backup_stop`, whose `backup_label`
 * and tablespace map are written into the copy) into `<backup dir>/base/<UTC timestamp>/`.
 * A base backup counts once its `backup.json` is written (last). Retention keeps the newest N base
 * backups and the archived WAL from the oldest kept one on. Restores: lib/runtime/restore.ts.
 * Only for the embedded database: an external DATABASE_URL is backed up with the server's tooling.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/** Files of the data folder (beside `postgres/`) copied with each base backup. */
export const KEPT_FILES = ["postgres-password", "auth-secret"] as const;

/** The `backup.json` of one base backup. Times are ISO 8601 (database clock), sizes in bytes. */
export type BaseBackup = {
  name: string;
  dir: string;
  started_at: string;
  finished_at: string;
  start_lsn: string;
  stop_lsn: string;
  /** WAL file holding the start of the backup: every archived segment before it is not needed. */
  start_wal: string;
  bytes: number;
  seconds: number;
};

/** Quotes `value` for /bin/sh inside a PostgreSQL command setting (`%` doubled: PostgreSQL's escape). */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`).replaceAll("%", "%%")}'`;
}

/** The folder of archived WAL segments inside `backupDir`. */
export function walArchiveDir(backupDir: string): string {
  return path.join(backupDir, "wal");
}

/** The folder of base backups inside `backupDir`. */
export function baseBackupsDir(backupDir: string): string {
  return path.join(backupDir, "base");
}

/**
 * `archive_command`: gzip the completed segment into the archive under a temporary name, then
 * rename it (atomic; re-archiving the same segment after a crash overwrites it with the same bytes).
 */
export function archiveCommand(backupDir: string): string {
  const target = (suffix: string) => shellQuote(path.join(walArchiveDir(backupDir), "x")).replace(/x'$/, `%f${suffix}'`);
  return `gzip -c %p > ${target(".gz.tmp")} && mv -f ${target(".gz.tmp")} ${target(".gz")}`;
}

/** `restore_command` matching `archiveCommand` (fails, as PostgreSQL expects, when the file is not archived). */
export function restoreCommand(backupDir: string): string {
  const source = shellQuote(path.join(walArchiveDir(backupDir), "x")).replace(/x'$/, "%f.gz'");
  return `test -f ${source} && gunzip -c ${source} > %p`;
}

/**
 * postgres flags turning WAL archiving on into `backupDir` (`archive_timeout` 1 h bounds how old
 * the newest archived change can be on a quiet server). `wal_level=replica` is PostgreSQL's default.
 */
export function archiveFlags(backupDir: string): string[] {
  return ["-c", "archive_mode=on", "-c", `archive_command=${archiveCommand(backupDir)}`, "-c", "archive_timeout=3600"];
}

/**
 * Creates the backup folders so the PostgreSQL server (user `owner`, when we run as root) can
 * write its archive into them.
 */
export function prepareBackupDir(backupDir: string, owner?: { uid: number; gid: number }): void {
  for (const dir of [backupDir, walArchiveDir(backupDir), baseBackupsDir(backupDir)]) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o750 });
  }
  if (owner && process.getuid?.() === 0) {
    fs.chmodSync(backupDir, 0o755);
    fs.chownSync(walArchiveDir(backupDir), owner.uid, owner.gid);
  }
}

/** Entries of the data folder that a base backup leaves out (PostgreSQL manual, "Making a Base Backup Using the Low Level API"). */
const EMPTY_DIRS = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);
const SKIP_FILES = new Set(["postmaster.pid", "postmaster.opts", "backup_label", "tablespace_map", "recovery.signal", "standby.signal"]);

/**
 * Copies a live data folder (files may change or vanish while we copy: a vanished one is skipped,
 * WAL replay repairs the rest). Directories get mode 0700, as PostgreSQL requires. Returns bytes copied.
 */
export function copyDataDir(from: string, to: string, top = true): number {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  let bytes = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(from, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
  for (const e of entries) {
    const source = path.join(from, e.name);
    const target = path.join(to, e.name);
    if (e.name.startsWith("pgsql_tmp") || e.name === "pg_internal.init") continue;
    if (e.isDirectory()) {
      if (top && EMPTY_DIRS.has(e.name)) fs.mkdirSync(target, { mode: 0o700 });
      else bytes += copyDataDir(source, target, false);
    } else if (e.isFile() && !(top && SKIP_FILES.has(e.name))) {
      try {
        fs.copyFileSync(source, target);
        bytes += fs.statSync(target).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
  }
  return bytes;
}

/** Total size in bytes of the files under `dir` (0 when absent). */
export function folderBytes(dir: string): number {
  let total = 0;
  try {
    for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
    }
  } catch {
    /* absent */
  }
  return total;
}

/** "12.3 MB" style size. */
export function formatBytes(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let n = bytes;
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

/** The complete base backups in `backupDir`, oldest first. */
export function listBaseBackups(backupDir: string): BaseBackup[] {
  const base = baseBackupsDir(backupDir);
  let names: string[] = [];
  try {
    names = fs.readdirSync(base);
  } catch {
    return [];
  }
  const out: BaseBackup[] = [];
  for (const name of names.sort()) {
    try {
      const meta = JSON.parse(fs.readFileSync(path.join(base, name, "backup.json"), "utf8")) as Omit<BaseBackup, "dir">;
      out.push({ ...meta, dir: path.join(base, name, "data") });
    } catch {
      /* incomplete or foreign: ignored (and removed by pruneBackups when older than the newest complete one) */
    }
  }
  return out.sort((a, b) => a.finished_at.localeCompare(b.finished_at));
}

/** A backup's source and destination: the running server at `url` (superuser), the backup folder, and where progress is logged (default: nowhere). */
export type BackupTarget = { url: string; backupDir: string; log?: (l: string) => void };

/** A backup of the embedded database (data folder `<dataDir>/postgres`) followed by retention of the `keep` newest base backups. */
export type EmbeddedBackupOptions = BackupTarget & { dataDir: string; keep: number };

/**
 * Takes a base backup of the running server at `url` (superuser) whose data folder is `pgDir`.
 * @throws Error when WAL archiving is off (the server must be restarted with `archiveFlags`).
 */
export async function takeBaseBackup(opts: BackupTarget & { pgDir: string }): Promise<BaseBackup> {
  const log = opts.log ?? (() => {});
  const client = new pg.Client({ connectionString: opts.url });
  await client.connect();
  const t0 = performance.now();
  try {
    const mode = (await client.query<{ archive_mode: string }>("SHOW archive_mode")).rows[0].archive_mode;
    if (mode === "off") {
      throw new Error(
        "WAL archiving is off on this PostgreSQL: restart the service (npm start) so that archive_mode=on takes effect, then back up.",
      );
    }
    prepareBackupDir(opts.backupDir);
    const name = new Date()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z");
    const folder = path.join(baseBackupsDir(opts.backupDir), name);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const started = await client.query<{ lsn: string; wal: string; at: Date }>(
      "SELECT lsn::text, pg_walfile_name(lsn) AS wal, clock_timestamp() AS at FROM (SELECT pg_backup_start($1, true) AS lsn) s",
      [`checkin ${name}`],
    );
    log(`Base backup ${name}: copying ${opts.pgDir}…`);
    let bytes: number;
    try {
      bytes = copyDataDir(opts.pgDir, path.join(folder, "data"));
    } catch (err) {
      await client.query("SELECT pg_backup_stop(false)").catch(() => {});
      throw err;
    }
    log("Waiting for PostgreSQL to archive the WAL the backup needs…");
    const stopped = await client.query<{ lsn: string; labelfile: string; spcmapfile: string; at: Date }>(
      "SELECT lsn::text, labelfile, spcmapfile, clock_timestamp() AS at FROM pg_backup_stop(true)",
    );
    const stop = stopped.rows[0];
    fs.writeFileSync(path.join(folder, "data", "backup_label"), stop.labelfile);
    // The database password (and the service's generated secret) belong with the data: a restore
    // on a new machine needs them (lib/runtime/restore.ts).
    for (const file of KEPT_FILES) {
      const from = path.join(path.dirname(opts.pgDir), file);
      if (fs.existsSync(from)) fs.copyFileSync(from, path.join(folder, file));
    }
    if (stop.spcmapfile) fs.writeFileSync(path.join(folder, "data", "tablespace_map"), stop.spcmapfile);
    const meta: Omit<BaseBackup, "dir"> = {
      name,
      started_at: started.rows[0].at.toISOString(),
      finished_at: stop.at.toISOString(),
      start_lsn: started.rows[0].lsn,
      stop_lsn: stop.lsn,
      start_wal: started.rows[0].wal,
      bytes,
      seconds: Math.round(performance.now() - t0) / 1000,
    };
    fs.writeFileSync(path.join(folder, "backup.json"), `${JSON.stringify(meta, null, 2)}\n`);
    return { ...meta, dir: path.join(folder, "data") };
  } finally {
    await client.end().catch(() => {});
  }
}

/** WAL segment (or `.backup` marker) name → its position without the timeline, for comparisons; null for `.history` and other files. */
function walPosition(file: string): string | null {
  const m = /^([0-9A-F]{8})([0-9A-F]{16})(\.[0-9A-F]{8}\.backup|\.partial)?(\.gz)?(\.tmp)?$/.exec(file);
  return m ? m[2] : null;
}

/**
 * Keeps the newest `keep` base backups and the archived WAL from the oldest kept one on; deletes
 * the rest (and incomplete base backup folders older than the newest complete one).
 * Returns what was removed and the sizes left (bytes).
 */
export function pruneBackups(
  backupDir: string,
  keep: number,
): { removedBackups: string[]; removedWal: number; baseBytes: number; walBytes: number } {
  const backups = listBaseBackups(backupDir);
  const kept = backups.slice(-Math.max(1, keep));
  const keptNames = new Set(kept.map((b) => b.name));
  const removedBackups: string[] = [];
  const newest = kept.at(-1)?.name;
  try {
    for (const name of fs.readdirSync(baseBackupsDir(backupDir))) {
      if (keptNames.has(name) || !newest || name > newest) continue; // a newer folder may be a backup in progress
      fs.rmSync(path.join(baseBackupsDir(backupDir), name), { recursive: true, force: true });
      removedBackups.push(name);
    }
  } catch {
    /* no base folder yet */
  }
  let removedWal = 0;
  const oldest = kept[0] ? walPosition(kept[0].start_wal) : null;
  if (oldest) {
    const walDir = walArchiveDir(backupDir);
    for (const file of fs.existsSync(walDir) ? fs.readdirSync(walDir) : []) {
      const pos = walPosition(file);
      if (pos !== null && pos < oldest) {
        fs.rmSync(path.join(walDir, file), { force: true });
        removedWal++;
      }
    }
  }
  return {
    removedBackups,
    removedWal,
    baseBytes: folderBytes(baseBackupsDir(backupDir)),
    walBytes: folderBytes(walArchiveDir(backupDir)),
  };
}

/** What `backupNow` did: the new base backup, what retention removed, sizes left (bytes). */
export type BackupReport = { backup: BaseBackup } & ReturnType<typeof pruneBackups>;

/**
 * `npm run backup` and the nightly `backup_nightly` job: a base backup of the running embedded
 * database at `url` (data folder `<dataDir>/postgres`), then retention (`keep` newest), logging sizes.
 */
export async function backupNow(opts: EmbeddedBackupOptions): Promise<BackupReport> {
  const log = opts.log ?? (() => {});
  const backup = await takeBaseBackup({ url: opts.url, pgDir: path.join(opts.dataDir, "postgres"), backupDir: opts.backupDir, log });
  const pruned = pruneBackups(opts.backupDir, opts.keep);
  log(`Base backup ${backup.name}: ${formatBytes(backup.bytes)} in ${backup.seconds.toFixed(1)} s (${backup.dir})`);
  if (pruned.removedBackups.length || pruned.removedWal) {
    log(`Retention (newest ${opts.keep}): removed ${pruned.removedBackups.length} base backup(s) and ${pruned.removedWal} WAL file(s)`);
  }
  log(`Backup folder ${opts.backupDir}: base backups ${formatBytes(pruned.baseBytes)}, WAL archive ${formatBytes(pruned.walBytes)}`);
  return { backup, ...pruned };
}

/**
 * The `beforeApply` hook of `applyMigrations` for the embedded database (issue 44, safe upgrades):
 * a base backup (then retention) before an upgrade's first migration, so that `npm run restore`
 * can bring back the previous version's data. Not used with an external DATABASE_URL.
 * @throws Error when the backup fails: nothing is migrated then.
 */
export function backupBeforeMigrating(opts: EmbeddedBackupOptions): (pending: string[]) => Promise<void> {
  const log = opts.log ?? (() => {});
  return async (pending) => {
    log(`Upgrade: ${pending.length} pending migration(s); taking a base backup of the embedded database first…`);
    try {
      await backupNow({ ...opts, log });
    } catch (err) {
      throw new Error(`the backup before applying ${pending.length} migration(s) failed, nothing was migrated: ${(err as Error).message}`);
    }
  };
}
