/**
 * The job worker's own process (issue 40), started and supervised by the service process
 * (lib/runtime/server.ts through lib/runtime/supervisor.ts; entry: scripts/worker-process.ts), so
 * that a worker that dies is started again without stopping PostgreSQL or the web server.
 *
 * It runs lib/jobs/worker.ts `startWorker` on `DIRECT_DATABASE_URL`, else `DATABASE_URL` (the
 * service passes both), under the crash policy of lib/runtime/crash-policy.ts, and tells its parent
 * `{ ready: true, poolId }` over IPC once running. It stops gracefully on SIGTERM/SIGINT/SIGHUP and
 * when its parent goes away (IPC disconnect), and exits with CRASH_EXIT_CODE when the runner
 * stops by itself (a fatal error of graphile-worker's pool), so its supervisor starts a new one.
 * Exit code: 0 after a requested stop, 1 when it could not start, CRASH_EXIT_CODE after a crash.
 */

import type { DeliveryConfig } from "@/lib/chat/config";
import { disconnectDb } from "@/lib/db";
import { databaseUrl, directDatabaseUrl } from "@/lib/env";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { CRASH_EXIT_CODE, describeError, installCrashPolicy } from "@/lib/runtime/crash-policy";

/**
 * Runs the worker process until it is stopped; resolves with its exit code (see the module comment).
 * @param options `crontab` and `delivery` as `startWorker` takes them (tests: tests/fakes/worker-process.ts).
 */
export async function runWorkerProcess(
  log: (line: string) => void,
  options: { crontab?: string; delivery?: DeliveryConfig | null } = {},
): Promise<number> {
  let worker: JobWorker | null = null;
  let stopping = false;
  let resolveDone: (code: number) => void = () => {};
  const done = new Promise<number>((r) => {
    resolveDone = r;
  });
  const stop = async (code: number, why?: string) => {
    if (stopping) return;
    stopping = true;
    if (why) log(why);
    await worker?.stop();
    await disconnectDb().catch(() => {});
    resolveDone(code);
  };
  installCrashPolicy({ name: "worker", log, onFatal: () => stop(CRASH_EXIT_CODE) });
  for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(s, () => void stop(0));
  process.on("disconnect", () => void stop(0, "worker: the service process went away: stopping."));

  const connectionString = directDatabaseUrl() ?? databaseUrl();
  if (!connectionString) {
    log("worker: no DATABASE_URL given.");
    return 1;
  }
  try {
    worker = await startWorker({ connectionString, log, ...options });
  } catch (err) {
    log(`worker: could not start: ${describeError(err)}`);
    await disconnectDb().catch(() => {});
    return 1;
  }
  if (stopping) {
    await worker.stop();
    return done;
  }
  process.send?.({ ready: true, poolId: worker.poolId });
  worker.runner.promise.then(
    () => {
      if (!stopping) void stop(CRASH_EXIT_CODE, "worker: the job runner stopped by itself: exiting to be restarted.");
    },
    (err: unknown) => {
      if (!stopping) void stop(CRASH_EXIT_CODE, `worker: the job runner failed: ${describeError(err)}; exiting to be restarted.`);
    },
  );
  return done;
}
