/**
 * The service process of `npm start` / `npm run dev` (ARCHITECTURE §4), started by scripts/start.ts
 * once the Prisma client and the production build exist:
 *   1. database: `DATABASE_URL`, else the embedded PostgreSQL under `.data/` (or `$CHECKIN_DATA_DIR`);
 *   2. pending migrations (lib/runtime/migrate.ts);
 *   3. the demo data when the database has no team (lib/seed/index.ts `seedDemoData`), unless
 *      CHECKIN_DEMO=false (`npm start -- --no-demo`): then the first visit shows /setup;
 *   4. `AUTH_SECRET` (signs sessions and cursors): the environment's, else with `DATABASE_URL` the
 *      one stored in the database (table `app_secrets`, created once, shared by every instance),
 *      else generated into `.data/auth-secret` (mode 0600);
 *   5. the job worker (graphile-worker runner, lib/jobs/worker.ts) as a child process
 *      (lib/runtime/worker-process.ts), unless `web-only`;
 *   6. Next.js (`next start`, or `next dev`) as a child process on `PORT`, bound to 0.0.0.0,
 *      unless `worker-only`.
 * Both children are supervised (lib/runtime/supervisor.ts, issue 40): one that dies is started
 * again with backoff while PostgreSQL and the other child keep running.
 * Migrations, the seed and the worker use `DIRECT_DATABASE_URL` when set (a direct connection:
 * advisory locks and LISTEN/NOTIFY do not work through PgBouncer in transaction mode); Next.js
 * gets `DATABASE_URL` (which may point at PgBouncer). Several instances may start at once: the
 * migrations and the seed run under advisory locks.
 * Stopping (SIGINT/SIGTERM, or the parent going away) stops Next.js, then the worker, then
 * PostgreSQL, and exits 0.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { disconnectDb } from "@/lib/db";
import {
  authSecret,
  backupDir,
  backupKeep,
  databaseUrl,
  dataDir,
  demoEnabled,
  directDatabaseUrl,
  explicitAuthSecret,
  nextAuthSecretSetting,
  setDatabaseUrl,
} from "@/lib/env";
import { backupBeforeMigrating } from "@/lib/runtime/backup";
import { CRASH_EXIT_CODE, installCrashPolicy } from "@/lib/runtime/crash-policy";
import { DatabaseBusyError, type EmbeddedDatabase, startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";
import { queryOnce, withPgClient } from "@/lib/runtime/pg-once";
import { spawnWebServer, spawnWorkerProcess, stopChild, waitForWorkerReady, waitUntilServing } from "@/lib/runtime/service-children";
import { recordServiceRestart } from "@/lib/runtime/service-events";
import { type Supervisor, supervise } from "@/lib/runtime/supervisor";
import { forgetWebUrl, recordWebUrl } from "@/lib/runtime/web-address";

/** Line logger. */
export type Log = (line: string) => void;

/** Signals on which the service shuts down. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Resolves when `port` can be bound on 0.0.0.0; rejects with a readable error when it is taken. */
export function assertPortFree(port: number, host = "0.0.0.0"): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === "EADDRINUSE" ? `Port ${port} is already in use. Stop what uses it or set PORT to another port.` : err.message,
        ),
      ),
    );
    srv.listen(port, host, () => srv.close(() => resolve()));
  });
}

/** Which parts of the service a process runs (`npm start -- --web-only` / `--worker-only`). */
export type ServiceRole = "all" | "web" | "worker";

/**
 * The secret stored in the database (`app_secrets`, name 'auth_secret'): created by the first
 * instance (32 random bytes), read by every other one, so all accept each other's sessions and cursors.
 */
export function databaseAuthSecret(url: string): Promise<string> {
  return withPgClient(url, async (client) => {
    await client.query("INSERT INTO app_secrets (name, value) VALUES ('auth_secret', $1) ON CONFLICT (name) DO NOTHING", [
      randomBytes(32).toString("base64url"),
    ]);
    const { rows } = await client.query<{ value: string }>("SELECT value FROM app_secrets WHERE name = 'auth_secret'");
    return rows[0].value;
  });
}

/** True when the database has at least one team (the seed has run or real data exists). */
async function hasAnyTeam(url: string): Promise<boolean> {
  const [row] = await queryOnce<{ has: boolean }>(url, "SELECT EXISTS (SELECT 1 FROM teams) AS has");
  return row.has;
}

type SeedFn = (opts: { db: unknown; log: Log; now?: Date }) => Promise<{ credentialsFile: string }>;

/** Advisory-lock key under which one instance at a time checks for and writes the demo seed. */
const SEED_LOCK = 7_240_014;

/** Runs `fn` holding a session advisory lock on a direct connection to `url`. */
function withAdvisoryLock<T>(url: string, key: number, fn: () => Promise<T>): Promise<T> {
  return withPgClient(url, async (client) => {
    await client.query("SELECT pg_advisory_lock($1)", [key]);
    try {
      return await fn();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [key]).catch(() => {});
    }
  });
}

/** Seeds the demo data through lib/seed/index.ts when the database has no team. Skips with a note when the module is absent. */
async function seedIfEmpty(url: string, log: Log, root: string): Promise<void> {
  await withAdvisoryLock(url, SEED_LOCK, () => seedUnlocked(url, log, root));
}

async function seedUnlocked(url: string, log: Log, root: string): Promise<void> {
  if (await hasAnyTeam(url)) return;
  if (!demoEnabled()) {
    log("Empty database and no demo data (CHECKIN_DEMO=false / --no-demo): open /setup to create your team and its first admin,");
    log('or run: npm run team -- create --name "Acme" --admin-email you@example.com --admin-name "Your Name"');
    return;
  }
  const file = path.join(root, "lib", "seed", "index.ts");
  if (!fs.existsSync(file)) {
    log("The database is empty and the demo seed (lib/seed/index.ts) is not available: starting without demo data.");
    return;
  }
  const mod = (await import(pathToFileURL(file).href)) as { seedDemoData?: SeedFn };
  if (typeof mod.seedDemoData !== "function") {
    log("lib/seed/index.ts does not export seedDemoData: starting without demo data.");
    return;
  }
  const { db } = await import("@/lib/db");
  log("Empty database: seeding the demo data (takes a little while)…");
  const started = Date.now();
  const r = await mod.seedDemoData({ db, log });
  log(`Demo data seeded in ${((Date.now() - started) / 1000).toFixed(1)} s (credentials: ${r.credentialsFile}).`);
}

/**
 * Start-up lines about the demo login: where the credentials file is and the login email, never
 * the password or a key (logs are often collected and shared; issue 13).
 */
export function describeCredentials(file: string): string[] {
  if (!fs.existsSync(file)) return [`Demo credentials: not found (${file} is written by the demo seed).`];
  const lines = [`Demo credentials and API keys: ${file}`];
  try {
    const data = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    const login = findLogin(data);
    if (login) lines.push(`Dashboard login: ${login.email} (password: "dashboard.password" in that file)`);
  } catch {
    /* unreadable: the path is printed anyway */
  }
  return lines;
}

function findLogin(value: unknown, depth = 0): { email: string; password: string } | null {
  if (!value || typeof value !== "object" || depth > 4) return null;
  const o = value as Record<string, unknown>;
  if (typeof o.email === "string" && typeof o.password === "string") return { email: o.email, password: o.password };
  const keys = Object.keys(o).sort((a, b) => Number(/dashboard|login|admin/i.test(b)) - Number(/dashboard|login|admin/i.test(a)));
  for (const k of keys) {
    const found = findLogin(o[k], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Runs the service until a stop signal. Resolves with the exit code: 0 after a requested stop, 1 on
 * a start-up failure (e.g. DatabaseBusyError: another `npm start` owns the embedded database),
 * CRASH_EXIT_CODE after an uncaught exception in this process (the launcher starts it again).
 * The web server and the job worker run as child processes under supervisors
 * (lib/runtime/supervisor.ts): either one that dies after start-up is started again, with backoff,
 * without stopping PostgreSQL; each restart is logged and recorded in `service_events`.
 * @param port TCP port of the web server. @param dev `next dev` instead of `next start`.
 */
export async function runService(opts: { dev: boolean; port: number; log: Log; root?: string; role?: ServiceRole }): Promise<number> {
  const { dev, port, log } = opts;
  const role = opts.role ?? "all";
  const root = opts.root ?? process.cwd();
  let database: EmbeddedDatabase | null = null;
  let worker: ChildProcess | null = null;
  let next: ChildProcess | null = null;
  const supervisors: { web?: Supervisor; worker?: Supervisor } = {};
  let stopping: Promise<void> | null = null;
  let resolveStopped: (code: number) => void = () => {};
  const stopped = new Promise<number>((r) => {
    resolveStopped = r;
  });

  const stopChildren = async () => {
    if (supervisors.web) await supervisors.web.stop();
    else if (next) await stopChild(next);
    if (supervisors.worker) await supervisors.worker.stop(30_000);
    else if (worker) await stopChild(worker, 30_000);
  };
  const shutdown = (code: number, why?: string) => {
    stopping ??= (async () => {
      if (why) log(why);
      await stopChildren();
      forgetWebUrl();
      await disconnectDb().catch(() => {});
      if (database) {
        await database.stop().catch((err: unknown) => log(`PostgreSQL stop: ${(err as Error)?.message ?? err}`));
        log("PostgreSQL stopped.");
      } else {
        log("Stopped.");
      }
    })().finally(() => resolveStopped(code));
    return stopping;
  };
  /** A stop arrived while a step was starting: stop what that step started, after the shutdown ran. */
  const abortIfStopping = async (): Promise<boolean> => {
    if (!stopping) return false;
    await stopping;
    await stopChildren();
    await database?.stop().catch(() => {});
    return true;
  };
  // This process owns PostgreSQL: an error nobody handled is logged and, if it was an exception,
  // everything is stopped in order before the exit (lib/runtime/crash-policy.ts).
  installCrashPolicy({ name: "service", log, onFatal: () => shutdown(CRASH_EXIT_CODE) });
  for (const s of STOP_SIGNALS)
    process.on(s, () => void shutdown(0, `Received ${s}: stopping the web server, the job worker${database ? ", then PostgreSQL" : ""}…`));
  process.on("disconnect", () => void shutdown(0, "The launcher went away: stopping…"));

  // Start-up phases and their wall-clock time (issue 49: the time of each phase is printed).
  const phases: string[] = [];
  let phaseStart = Date.now();
  const startedAt = phaseStart;
  const phase = (name: string) => {
    phases.push(`${name} ${((Date.now() - phaseStart) / 1000).toFixed(1)} s`);
    phaseStart = Date.now();
  };
  try {
    if (role !== "worker") await assertPortFree(port);
    let url = databaseUrl();
    if (url) {
      log(
        `Using the PostgreSQL of DATABASE_URL (${new URL(url).host})` +
          (directDatabaseUrl() ? `, direct connection ${new URL(directDatabaseUrl() as string).host}.` : "."),
      );
    } else {
      database = await startEmbeddedPostgres({
        purpose: dev ? "npm run dev" : "npm start",
        log: (line) => {
          if (!stopping && /^Initialising|^Stopping the PostgreSQL|FATAL|PANIC/.test(line)) log(line);
        },
      });
      url = database.url;
      setDatabaseUrl(url);
      log(`Embedded PostgreSQL running on 127.0.0.1:${database.port} (data in ${dataDir()}).`);
    }
    phase("database");
    if (await abortIfStopping()) return await stopped;
    const direct = directDatabaseUrl() ?? url;
    // An upgrade of the embedded database takes a base backup before its first migration.
    const beforeApply = database
      ? backupBeforeMigrating({ url: database.url, dataDir: dataDir(), backupDir: backupDir(), keep: backupKeep(), log })
      : undefined;
    const migrations = await applyMigrations(direct, log, { beforeApply });
    log(migrations.applied.length ? `Applied ${migrations.applied.length} migration(s).` : "Database schema is up to date.");
    phase("migrations");
    await seedIfEmpty(direct, log, root);
    phase("seed");
    // With an external database every instance takes the one stored there; embedded: the data folder's.
    const secret = explicitAuthSecret() ?? (database ? authSecret() : await databaseAuthSecret(direct));
    if (await abortIfStopping()) return await stopped;
    const webEnv = { DATABASE_URL: url, AUTH_SECRET: secret, NEXTAUTH_SECRET: nextAuthSecretSetting() ?? secret };
    // The worker and the web server start side by side.
    if (role !== "web") worker = spawnWorkerProcess(root);
    if (role !== "worker") next = spawnWebServer({ root, dev, port, env: webEnv });
    await Promise.all([
      worker ? waitForWorkerReady(worker, 120_000) : null,
      next ? waitUntilServing(port, { http: !dev, timeoutMs: dev ? 180_000 : 90_000, child: next }) : null,
    ]);
    phase(role === "all" ? "worker and web server" : role === "web" ? "web server" : "worker");
    log(`Started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (${phases.join(", ")}).`);
    if (await abortIfStopping()) return await stopped;
    const record = (kind: "web" | "worker") => (reason: string, pid: number | undefined) =>
      void recordServiceRestart(kind, reason, pid, log);
    if (worker)
      supervisors.worker = supervise({
        name: "job worker",
        first: worker,
        spawn: () => spawnWorkerProcess(root),
        log,
        onRestart: record("worker"),
      });
    if (next) {
      supervisors.web = supervise({
        name: "web server",
        first: next,
        spawn: () => spawnWebServer({ root, dev, port, env: webEnv }),
        log,
        onRestart: record("web"),
        onStarted: (child, diedAt) =>
          void waitUntilServing(port, { http: !dev, timeoutMs: 90_000, child }).then(
            () => log(`The web server is serving again, ${((Date.now() - diedAt) / 1000).toFixed(1)} s after it died.`),
            () => {},
          ),
      });
    }
    if (role === "worker") {
      log("Job worker only (--worker-only): no web server. Press Ctrl-C to stop.");
      process.send?.({ ready: true });
      return await stopped;
    }
    const base = `http://localhost:${port}`;
    recordWebUrl(base);
    log("");
    log(`Team Check-in Service is ready: ${base}  (API: ${base}/v2/..., dashboard: ${base}/)`);
    for (const line of describeCredentials(path.join(dataDir(), "demo-credentials.json"))) log(line);
    log("Press Ctrl-C to stop.");
    process.send?.({ ready: true }); // the launcher restarts a service that crashes after this
  } catch (err) {
    const message = err instanceof DatabaseBusyError ? err.message : `Start-up failed: ${(err as Error)?.message ?? err}`;
    await shutdown(1, message);
  }
  return stopped;
}
