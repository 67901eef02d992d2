/**
 * Keeps one child process of the service running (issue 40): the web server (Next.js) and the job
 * worker each run under a `Supervisor`. When the child exits without being asked to, the
 * supervisor logs why (exit code or signal), reports it (`onRestart`, which records it in
 * `service_events` for Settings → System) and starts a new one after a backoff: `BACKOFF_MIN_MS`
 * doubling to `BACKOFF_MAX_MS`, back to the minimum once a child has run `STABLE_MS`.
 * It stops for good only when `stop()` is called (Ctrl-C / SIGTERM of the service).
 */
import type { ChildProcess } from "node:child_process";

/** First restart delay (milliseconds). */
export const BACKOFF_MIN_MS = 500;
/** Longest restart delay (milliseconds). */
export const BACKOFF_MAX_MS = 10_000;
/** A child that ran this long (milliseconds) before it died restarts after the minimum delay again. */
export const STABLE_MS = 60_000;

/** The restart delay after `delayMs` for a child that ran `ranMs`: reset when it was stable, else doubled (capped). */
export function nextBackoff(delayMs: number | null, ranMs: number): number {
  if (delayMs === null || ranMs >= STABLE_MS) return BACKOFF_MIN_MS;
  return Math.min(delayMs * 2, BACKOFF_MAX_MS);
}

/** How a child ended, as logged and recorded: "signal SIGKILL" / "exit code 1". */
export function exitReason(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

export type Supervisor = {
  /** The running child, or null between a death and its restart. */
  current: () => ChildProcess | null;
  /** Restarts so far. */
  restarts: () => number;
  /** Stops supervising and stops the child (SIGTERM, SIGKILL after `graceMs`). Idempotent. */
  stop: (graceMs?: number) => Promise<void>;
};

/**
 * Supervises `first` (already started and ready) and every replacement `spawn()` starts.
 * @param opts.name the child as logged ("web server", "job worker").
 * @param opts.onRestart called once per restart with the reason and the dead child's PID (errors
 * are the callee's); @param opts.onStarted called with each replacement (e.g. to log when it serves).
 */
export function supervise(opts: {
  name: string;
  first: ChildProcess;
  spawn: () => ChildProcess;
  log: (line: string) => void;
  onRestart?: (reason: string, pid: number | undefined) => void;
  onStarted?: (child: ChildProcess, diedAt: number) => void;
}): Supervisor {
  let child: ChildProcess | null = opts.first;
  let stopped = false;
  let restarts = 0;
  let delay: number | null = null;
  let timer: NodeJS.Timeout | null = null;

  const watch = (c: ChildProcess) => {
    const startedAt = Date.now();
    c.once("exit", (code, signal) => {
      if (child === c) child = null;
      if (stopped) return;
      const reason = exitReason(code, signal);
      const diedAt = Date.now();
      delay = nextBackoff(delay, diedAt - startedAt);
      restarts++;
      opts.log(`The ${opts.name} (pid ${c.pid}) exited unexpectedly (${reason}); restart #${restarts} in ${(delay / 1000).toFixed(1)} s.`);
      opts.onRestart?.(reason, c.pid);
      timer = setTimeout(() => {
        timer = null;
        if (stopped) return;
        try {
          const next = opts.spawn();
          child = next;
          watch(next);
          opts.onStarted?.(next, diedAt);
        } catch (err) {
          opts.log(`Starting the ${opts.name} again failed: ${(err as Error)?.message ?? err}`);
        }
      }, delay);
    });
  };
  watch(opts.first);

  return {
    current: () => child,
    restarts: () => restarts,
    stop: async (graceMs = 10_000) => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => c.kill("SIGKILL"), graceMs);
        c.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        c.kill("SIGTERM");
      });
    },
  };
}
