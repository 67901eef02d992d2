/**
 * Child-process helpers shared by the scripts that start servers (scripts/e2e.ts,
 * scripts/multi-instance.ts, lib/bench/servers.ts): a free TCP port, waiting for HTTP, stopping a
 * process (group) gracefully, a process's children.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

/** A TCP port that is free right now on `host` (the OS picks it). */
export function freePort(host = "0.0.0.0"): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves when `url` answers HTTP; rejects when `child` exits or after `timeoutMs`. */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode})`);
    const ok = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5000) }).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no answer from ${url} within ${Math.round(timeoutMs / 1000)} s`);
}

/** SIGTERM to the child's process group, SIGKILL after `graceMs`; resolves when it has exited. */
export function stopProcess(child: ChildProcess, graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = (sig: NodeJS.Signals) => {
      try {
        process.kill(-(child.pid as number), sig);
      } catch {
        child.kill(sig);
      }
    };
    const timer = setTimeout(() => kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    kill("SIGTERM");
  });
}

/** The PIDs of `pid`'s child processes whose command line contains `match` (Linux /proc; [] elsewhere or when `pid` is gone). */
export function childPids(pid: number, match: string): number[] {
  let children: number[];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.filter((c) => {
    try {
      return fs.readFileSync(`/proc/${c}/cmdline`, "utf8").includes(match);
    } catch {
      return false;
    }
  });
}

/** Resolves once `port` can be bound on `host`, or after `timeoutMs` (milliseconds) anyway. */
export async function waitForFreePort(port: number, timeoutMs: number, host = "0.0.0.0"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port, host, () => srv.close(() => resolve(true)));
    });
    if (free) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
