/**
 * The two child processes of the service process (lib/runtime/server.ts, issue 40): the web server
 * (`next start` / `next dev` with lib/runtime/next-preload.cjs) and the job worker
 * (scripts/worker-process.ts → lib/runtime/worker-process.ts). How each is started, how the service
 * knows it is up, and how it is stopped; lib/runtime/supervisor.ts starts them again when they die.
 */
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { childEnv } from "@/lib/env";
import { runningCommit } from "@/lib/runtime/version";

/**
 * Starts the Next.js server on `port` (bound to 0.0.0.0) with `env` added to this process's
 * environment (DATABASE_URL, AUTH_SECRET…) and CHECKIN_COMMIT (the commit at start, when known:
 * Settings → System shows it). Its output goes to this process's.
 */
export function spawnWebServer(opts: { root: string; dev: boolean; port: number; env: Record<string, string> }): ChildProcess {
  const nextBin = path.join(opts.root, "node_modules", "next", "dist", "bin", "next");
  const preload = path.join(opts.root, "lib", "runtime", "next-preload.cjs");
  return spawn(process.execPath, ["--require", preload, nextBin, opts.dev ? "dev" : "start", "-p", String(opts.port), "-H", "0.0.0.0"], {
    cwd: opts.root,
    stdio: ["ignore", "inherit", "inherit"],
    env: childEnv({
      CHECKIN_COMMIT: runningCommit(opts.root) ?? undefined,
      ...opts.env,
      PORT: String(opts.port),
      NEXT_TELEMETRY_DISABLED: "1",
    }),
  });
}

/** Starts the job worker process (this process's environment, with DATABASE_URL set) with an IPC channel. */
export function spawnWorkerProcess(root: string): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "worker-process.ts")], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: childEnv(),
  });
}

/**
 * Resolves when the worker process says it runs (`{ready: true}` over IPC).
 * @throws when it exits first or after `timeoutMs`.
 */
export function waitForWorkerReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (err) reject(err);
      else resolve();
    };
    const onMessage = (m: unknown) => {
      if ((m as { ready?: boolean })?.ready) done();
    };
    const onExit = () => done(new Error("The job worker exited during start-up (see its output above)."));
    const timer = setTimeout(() => done(new Error(`The job worker did not start within ${Math.round(timeoutMs / 1000)} s.`)), timeoutMs);
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/** Waits until something answers on `port`: an HTTP response (production) or a TCP connection (dev). */
export async function waitUntilServing(port: number, opts: { http: boolean; timeoutMs: number; child: ChildProcess }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    if (opts.child.exitCode !== null || opts.child.signalCode !== null)
      throw new Error("The Next.js server exited during start-up (see its output above).");
    const ok = opts.http
      ? await fetch(`http://127.0.0.1:${port}/`, { redirect: "manual", signal: AbortSignal.timeout(5000) }).then(
          () => true,
          () => false,
        )
      : await new Promise<boolean>((resolve) => {
          const s = net.connect(port, "127.0.0.1");
          s.once("connect", () => {
            s.destroy();
            resolve(true);
          });
          s.once("error", () => resolve(false));
        });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The Next.js server did not answer on port ${port} within ${Math.round(opts.timeoutMs / 1000)} s.`);
}

/** Sends SIGTERM to a child and waits for it to exit; SIGKILL after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
