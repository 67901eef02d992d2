/**
 * Running `npm start` (scripts/start.ts) from the fault-injection drill: the launcher as a child
 * process with its output kept, waiting until it answers HTTP (polling as often as asked, to time
 * restarts), and the PID of its service process. Free ports and stopping: lib/runtime/processes.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { childEnv } from "@/lib/env";

/** Waits until `url` answers HTTP (any status), or fails when `server` exits or `timeoutMs` passes. */
export async function waitForServer(url: string, server: ChildProcess, timeoutMs: number, pollMs = 500): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`the server exited (${server.exitCode ?? server.signalCode})`);
    const answered = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`no answer from ${url} within ${timeoutMs / 1000} s`);
}

/** A running `npm start` launcher and the output it printed so far (bounded). */
export type LaunchedService = { child: ChildProcess; output: () => string };

/**
 * Spawns scripts/start.ts like `npm start` with `env` (PORT, CHECKIN_DATA_DIR…); DATABASE_URL of
 * the caller's environment is dropped unless `env` sets it.
 */
export function launchService(opts: { root: string; env: Record<string, string>; maxOutputBytes?: number }): LaunchedService {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const max = opts.maxOutputBytes ?? 4_000_000;
  const keep = (chunk: Buffer) => {
    chunks.push(chunk);
    bytes += chunk.length;
    while (bytes > max && chunks.length > 1) bytes -= (chunks.shift() as Buffer).length;
  };
  const env = childEnv();
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(opts.root, "scripts", "start.ts")], {
    cwd: opts.root,
    env: { ...env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { child, output: () => Buffer.concat(chunks).toString("utf8") };
}

/** PID of the service process (the `--service` child of a launcher), from the data folder's lock file. */
export function servicePid(dataDir: string): number | null {
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, "server.lock"), "utf8")) as { pid: number };
    return lock.pid;
  } catch {
    return null;
  }
}
