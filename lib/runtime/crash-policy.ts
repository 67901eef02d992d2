/**
 * What a process of the service does with an error nobody handled (issue 40). Node's default is to
 * print it and exit, and a library's fire-and-forget promise (graphile-worker 0.17 records a job's
 * end without awaiting it: lib/jobs/lost-completions.ts) rejecting on a lost database connection
 * then took down the process that owned PostgreSQL.
 *
 * - An unhandled promise rejection is logged (with its stack) and the process keeps serving: the
 *   promise's owner is done with it, and what it left undone is repaired where it matters (job
 *   locks: lib/jobs/lost-completions.ts, lib/jobs/heartbeat.ts).
 * - An uncaught exception leaves the process in an unknown state: it is logged, `onFatal` runs
 *   (at most `fatalGraceMs`) and the process exits with `CRASH_EXIT_CODE`, to be restarted by its
 *   supervisor (lib/runtime/supervisor.ts for the web server and the worker, the launcher for the
 *   service process). It never exits without saying why.
 */

/** Exit code of a process that ended on an uncaught exception (EX_SOFTWARE): its supervisor restarts it. */
export const CRASH_EXIT_CODE = 70;

/** The first lines of an error's stack, or its text. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const stack = (err.stack ?? `${err.name}: ${err.message}`).split("\n").slice(0, 8).join("\n");
    return code ? `${stack}\n  (code ${String(code)})` : stack;
  }
  return String(err);
}

/**
 * Installs the policy on this process (see the module comment).
 * @param opts.name the process as named in its log lines ("service", "worker").
 * @param opts.log line logger. @param opts.onFatal clean-up before the exit (e.g. stop the children
 * and PostgreSQL). @param opts.exit replaces `process.exit` (tests).
 * @returns a function that removes the handlers again.
 */
export function installCrashPolicy(opts: {
  name: string;
  log: (line: string) => void;
  onFatal?: () => Promise<unknown>;
  fatalGraceMs?: number;
  exit?: (code: number) => void;
}): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let fatal = false;
  const onRejection = (reason: unknown) => {
    opts.log(`${opts.name}: unhandled promise rejection (logged; the process keeps serving): ${describeError(reason)}`);
  };
  const onException = (err: unknown) => {
    opts.log(`${opts.name}: uncaught exception, exiting with code ${CRASH_EXIT_CODE} to be restarted: ${describeError(err)}`);
    if (fatal) return;
    fatal = true;
    if (!opts.exit) process.exitCode = CRASH_EXIT_CODE; // also when the loop empties before the exit
    const grace = new Promise((resolve) => setTimeout(resolve, opts.fatalGraceMs ?? 15_000).unref());
    void Promise.race([Promise.resolve(opts.onFatal?.()).catch(() => {}), grace]).then(() => exit(CRASH_EXIT_CODE));
  };
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  return () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
  };
}
