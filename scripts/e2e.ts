/**
 * `npm run test:e2e [-- <playwright args>]`: end-to-end tests against the production build.
 * 1. generates the Prisma client / builds when missing or stale (lib/runtime/build.ts);
 * 2. starts the service exactly like `npm start` (scripts/start.ts) on a free port with a fresh
 *    throwaway data folder under the OS temp dir (CHECKIN_DATA_DIR; embedded PostgreSQL, migrations,
 *    demo seed, worker), ignoring any DATABASE_URL of the environment;
 * 3. runs `playwright test` with BASE_URL and CHECKIN_DATA_DIR exported (arguments are passed on,
 *    e.g. `--project api`);
 * 4. stops the server (SIGTERM) and deletes the data folder.
 * Server output is kept in memory and written to test-results/e2e-server.log at the end (Playwright
 * empties test-results/ when it starts); its tail is printed when start-up fails.
 * Exit code: Playwright's, or 1 when the server could not start.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureBuild, ensurePrismaClient } from "@/lib/runtime/build";
import { freePort, waitForHttp } from "@/lib/runtime/processes";
import { makeTempDir } from "@/scripts/throwaway";

const root = process.cwd();
const log = (line: string) => console.log(`[e2e] ${line}`);

/** SIGTERM to the launcher (it stops Next.js, the worker and PostgreSQL in order); SIGKILL after 60 s. */
function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.kill("SIGKILL"), 60_000);
    server.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    server.kill("SIGTERM");
  });
}

async function main(): Promise<number> {
  const started = Date.now();
  ensurePrismaClient(log);
  ensureBuild(log);

  const dataDir = makeTempDir("checkin-e2e-");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(root, "test-results", "e2e-server.log");
  const output: Buffer[] = [];
  let outputBytes = 0;
  const keep = (chunk: Buffer) => {
    output.push(chunk);
    outputBytes += chunk.length;
    while (outputBytes > 4_000_000 && output.length > 1) outputBytes -= (output.shift() as Buffer).length;
  };
  const serverLog = () => Buffer.concat(output).toString("utf8");
  const env: NodeJS.ProcessEnv = { ...process.env, CHECKIN_DATA_DIR: dataDir, PORT: String(port) };
  delete env.DATABASE_URL;

  log(`starting the server on ${baseUrl} (data in ${dataDir}, log in ${path.relative(root, logFile)})`);
  const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts")], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  let code = 1;
  try {
    await waitForHttp(`${baseUrl}/`, server, 180_000);
    log(`server ready after ${((Date.now() - started) / 1000).toFixed(1)} s; running Playwright`);
    const pw = spawn(
      process.execPath,
      [path.join(root, "node_modules", "@playwright", "test", "cli.js"), "test", ...process.argv.slice(2)],
      {
        cwd: root,
        stdio: "inherit",
        env: { ...process.env, BASE_URL: baseUrl, CHECKIN_DATA_DIR: dataDir },
      },
    );
    code = await new Promise<number>((resolve) => pw.on("exit", (c, s) => resolve(c ?? (s ? 1 : 0))));
  } catch (err) {
    console.error(`[e2e] the server did not start: ${(err as Error).message}`);
    console.error(serverLog().split("\n").slice(-60).join("\n"));
  } finally {
    log("stopping the server");
    await stopServer(server);
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    fs.writeFileSync(logFile, serverLog());
  }
  if (code === 0 && !interrupted && process.argv.length <= 2) {
    // Issue 13: the short fault-injection drill (connections terminated, three SIGKILL + restart
    // cycles under a write load) on the same, already seeded data folder.
    log("running the fault-injection drill (short form) on the same data");
    const drill = spawn(
      process.execPath,
      ["--import", "tsx", path.join(root, "scripts", "fault-injection.ts"), "--short", "--restart-limit", "30", "--data-dir", dataDir],
      { cwd: root, stdio: "inherit" },
    );
    code = await new Promise<number>((resolve) => drill.on("exit", (c, s) => resolve(c ?? (s ? 1 : 0))));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (interrupted && code === 0) code = 130;
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s (exit code ${code})`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[e2e] ${(err as Error)?.message ?? err}`);
    process.exit(1);
  },
);
