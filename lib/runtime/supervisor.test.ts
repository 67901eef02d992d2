/**
 * The supervisor of `npm start` (issue 40): the job worker and the web server are child processes
 * of the service; each one killed (SIGKILL) is back within seconds while PostgreSQL keeps running
 * (same postmaster PID), and each restart is recorded in `service_events`; a killed service process
 * is started again by the launcher. Runs `npm start` on a
 * throwaway data folder without the demo data: with the web server when the production build is
 * there and fresh (it is after `npm run build` or `npm run test:e2e`; `next dev` would rewrite
 * tsconfig.json), else `--worker-only` (the fault-injection drill of `npm run test:e2e` kills the
 * web server too).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv } from "@/lib/env";
import { buildStaleReason } from "@/lib/runtime/build";
import { servicePid } from "@/lib/runtime/launch";
import { childPids, freePort, stopProcess } from "@/lib/runtime/processes";
import { BACKOFF_MAX_MS, BACKOFF_MIN_MS, nextBackoff, STABLE_MS } from "@/lib/runtime/supervisor";
import { makeTempDir } from "@/scripts/throwaway";

const root = path.resolve(import.meta.dirname, "../..");
/**
 * Milliseconds a killed child may take to be back. Issue 40 asks for 10 s, which it takes on an idle
 * machine (a worker about 3-6 s, a web server about 2-3 s); CI machines are shared, so the bound
 * here is 30 s as for the fault drill's short form in `npm test` (scripts/e2e.ts); the times are
 * logged.
 */
const BACK_WITHIN_MS = 30_000;
const dir = makeTempDir("checkin-supervisor-");
let launcher: ChildProcess | undefined;
let output = "";

afterAll(async () => {
  if (launcher) await stopProcess(launcher, 30_000);
  fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, withinMs: number, probe: () => Promise<T | null> | T | null): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs / 1000} s\n${output.slice(-3000)}`);
    await sleep(100);
  }
}

const serving = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });

describe("backoff", () => {
  it("doubles from the minimum up to the maximum and starts over after a stable run", () => {
    expect(nextBackoff(null, 0)).toBe(BACKOFF_MIN_MS);
    expect(nextBackoff(BACKOFF_MIN_MS, 1000)).toBe(BACKOFF_MIN_MS * 2);
    expect(nextBackoff(8000, 1000)).toBe(BACKOFF_MAX_MS);
    expect(nextBackoff(BACKOFF_MAX_MS, STABLE_MS)).toBe(BACKOFF_MIN_MS);
  });
});

describe("npm start's supervisor", () => {
  const web = buildStaleReason(root) === null;
  it(`brings a killed job worker${web ? " and a killed web server" : ""} back without restarting PostgreSQL`, async () => {
    const port = await freePort();
    const env = childEnv({ CHECKIN_DATA_DIR: dir, PORT: String(port), CHECKIN_DEMO: "false" });
    delete env.DATABASE_URL;
    launcher = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts"), ...(web ? [] : ["--worker-only"])], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    launcher.stdout?.on("data", (d) => {
      output += String(d);
    });
    launcher.stderr?.on("data", (d) => {
      output += String(d);
    });
    await waitFor("the service is ready", 120_000, () => (/Team Check-in Service is ready|Job worker only/.test(output) ? true : null));
    // The start-up prints the time of each phase (issue 49).
    expect(output).toMatch(
      /Started in \d+\.\d s \(database \d+\.\d s, migrations \d+\.\d s, seed \d+\.\d s, (worker and web server|worker) \d+\.\d s\)/,
    );
    const service = servicePid(dir) as number;
    const postmaster = () => Number(fs.readFileSync(path.join(dir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
    const pgPid = postmaster();

    // The job worker.
    const [worker] = childPids(service, "worker-process.ts");
    expect(worker).toBeGreaterThan(0);
    const runningBefore = output.split("Job worker running").length;
    process.kill(worker, "SIGKILL");
    const killedWorkerAt = Date.now();
    await waitFor("a new job worker runs", BACK_WITHIN_MS, () => (output.split("Job worker running").length > runningBefore ? true : null));
    const [newWorker] = childPids(service, "worker-process.ts");
    expect(newWorker).not.toBe(worker);
    expect(output).toMatch(/The job worker \(pid \d+\) exited unexpectedly \(signal SIGKILL\); restart #1 in 0\.5 s/);
    console.log(`job worker back after ${((Date.now() - killedWorkerAt) / 1000).toFixed(1)} s`);

    // The web server.
    const [next] = web ? childPids(service, "next") : [];
    if (web) {
      expect(next).toBeGreaterThan(0);
      process.kill(next, "SIGKILL");
      const killedWebAt = Date.now();
      await waitFor("the web server stops answering", 5_000, async () => ((await serving(port)) ? null : true));
      await waitFor("the web server answers again", BACK_WITHIN_MS, async () => ((await serving(port)) ? true : null));
      console.log(`web server back after ${((Date.now() - killedWebAt) / 1000).toFixed(1)} s`);
      expect(output).toMatch(/The web server \(pid \d+\) exited unexpectedly \(signal SIGKILL\); restart #1/);
    }

    expect(postmaster()).toBe(pgPid);
    expect(servicePid(dir)).toBe(service);
    const lock = JSON.parse(fs.readFileSync(path.join(dir, "server.lock"), "utf8")) as { port: number };
    const password = fs.readFileSync(path.join(dir, "postgres-password"), "utf8").trim();
    const client = new pg.Client({
      connectionString: `postgresql://checkin:${encodeURIComponent(password)}@127.0.0.1:${lock.port}/postgres`,
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ process: string; reason: string }>("SELECT process, reason FROM service_events ORDER BY id");
      expect(rows).toEqual([
        { process: "worker", reason: "signal SIGKILL" },
        ...(web ? [{ process: "web", reason: "signal SIGKILL" }] : []),
      ]);
    } finally {
      await client.end();
    }

    // The service process itself: the launcher starts a new one (and with it PostgreSQL again).
    const readyBefore = output.split(/Team Check-in Service is ready|Job worker only/).length;
    process.kill(service, "SIGKILL");
    await waitFor("a new service process is ready", 120_000, () =>
      output.split(/Team Check-in Service is ready|Job worker only/).length > readyBefore ? true : null,
    );
    expect(output).toMatch(/The service process \(pid \d+\) crashed \(signal SIGKILL\); starting it again in 0\.5 s/);
    expect(servicePid(dir)).not.toBe(service);
    expect(launcher?.exitCode).toBeNull();
  }, 300_000);
});
