/**
 * CPU time used by this machine's Next.js and PostgreSQL processes, read from Linux's /proc, for
 * `npm run bench` (scripts/bench.ts): sampled before and after a load run and divided by the
 * requests served, it tells which process an endpoint's throughput is bound by (issue 14: a read
 * is bound by Node's one thread when its Node CPU per request × requests/s reaches one core).
 *
 * Processes are recognized by name: `next-server …` (Next.js; the bench's empty route is idle
 * while an endpoint runs, so the delta is the app's) and `postgres` (every backend and auxiliary
 * process of the local server). Backends that exit during a run take their time with them, so PG
 * figures are a lower bound. On a system without /proc the sample is null.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

/** Cumulative user + system CPU time in milliseconds, by process kind. */
export type CpuSample = { next: number; postgres: number };

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 when it cannot be read). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Current cumulative CPU time (ms) of the Next.js and PostgreSQL processes, or null without /proc. */
export function cpuSample(): CpuSample | null {
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const sample: CpuSample = { next: 0, postgres: 0 };
  const msPerTick = 1000 / clockTicks();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid …": comm may contain spaces; utime and stime are fields 14 and 15.
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const kind = comm.startsWith("next-server") ? "next" : comm === "postgres" ? "postgres" : null;
    if (!kind) continue;
    const fields = stat.slice(close + 2).split(" ");
    sample[kind] += (Number(fields[11]) + Number(fields[12])) * msPerTick;
  }
  return sample;
}

/** CPU milliseconds per request of each kind between two samples; null when either is missing or nothing was served. */
export function cpuPerRequest(before: CpuSample | null, after: CpuSample | null, requests: number): CpuSample | null {
  if (!before || !after || requests <= 0) return null;
  return { next: (after.next - before.next) / requests, postgres: (after.postgres - before.postgres) / requests };
}
