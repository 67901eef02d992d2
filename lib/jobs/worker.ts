/**
 * Starts the in-process job runner (graphile-worker 0.17): applies graphile-worker's own schema
 * migrations (schema `graphile_worker`), then runs the task list of lib/jobs/tasks.ts with
 * concurrency 2 and the crontab (every minute `schedule_tick` and `categorize_sweep`, hourly `cleanup_idempotency`),
 * plus one `categorize_sweep` right at start when the real crontab is used.
 * Cron items are de-duplicated by graphile-worker across instances, so many app instances may run
 * a worker against one database.
 *
 * The worker uses its own small pg pool that this module owns: graphile-worker does not wait for a
 * pool it created to end on stop, so PostgreSQL stopping right after could crash the process with
 * an unhandled pool error; here `stop()` waits for the pool to end.
 *
 * Each runner also moves the job outbox (jobs that writes enqueued in their transaction) to
 * graphile-worker: lib/jobs/outbox.ts.
 *
 * A worker that just ran a job of a named queue and finds nothing is nudged once more 10 ms later
 * (`nudgeAfterQueuedJobs`), so one channel's backlog is not delivered at one message per poll.
 *
 * Dead workers and lost completions (issue 40): the runner's pool keeps a heartbeat row and, on
 * start, releases at once the locks of pools whose process is gone (lib/jobs/heartbeat.ts); jobs
 * whose end could not be recorded because the connection was lost are released by
 * lib/jobs/lost-completions.ts. The runner's own errors (`pool:listen:error`,
 * `worker:getJob:error`, `pool:fatalError`) are logged from its events.
 *
 * Logging: graphile-worker's info/debug chatter (per job "completed" lines) is dropped; its warnings
 * and errors, and the tasks' own summaries, go to `log`.
 */
import { EventEmitter } from "node:events";
import { Logger, type LogLevel, type Runner, run, runMigrations, type Worker, type WorkerEvents } from "graphile-worker";
import pg from "pg";
import { type DeliveryConfig, deliveryConfigFromEnv } from "@/lib/chat/config";
import { closeDeliveryDeps, createDeliveryDeps } from "@/lib/chat/delivery";
import { SLACK_SYNC_JOB_KEY } from "@/lib/chat/slack-sync";
import { db } from "@/lib/db";
import { slackSettings } from "@/lib/env";
import { recoverStaleLocks } from "@/lib/jobs/delivery";
import { recoverDeadWorkers, startHeartbeat } from "@/lib/jobs/heartbeat";
import { watchLostCompletions } from "@/lib/jobs/lost-completions";
import { startOutboxDispatcher } from "@/lib/jobs/outbox";
import { CRONTAB, createTaskList, type JobLog } from "@/lib/jobs/tasks";
import { type Logger as PinoLogger, logger as processLogger } from "@/lib/logger";

/** graphile-worker's level → ours: its `info` lines (one per job run) are `debug`. */
const GRAPHILE_LEVELS: Record<LogLevel, "error" | "warn" | "debug"> = { error: "error", warning: "warn", info: "debug", debug: "debug" };

/**
 * graphile-worker's Logger writing through `log` (issue 44): one entry per message, with the
 * scope's task, job and worker ids as fields and `component: "graphile-worker"`.
 */
export function graphileLogger(log: PinoLogger): Logger {
  const child = log.child({ component: "graphile-worker" });
  return new Logger((scope) => (level: LogLevel, message: string) => {
    const { taskIdentifier: task, jobId, workerId } = scope;
    child[GRAPHILE_LEVELS[level] ?? "info"]({ task, jobId, workerId }, message);
  });
}

export type JobWorker = {
  /** Gracefully stops the runner (waits for running jobs). Idempotent. */
  stop: () => Promise<void>;
  runner: Runner;
  /** graphile-worker's id of this runner's pool (the `locked_by` of its jobs). */
  poolId: string;
};

/**
 * @param connectionString postgresql:// URL of the application database.
 * @param log line logger (e.g. console.log).
 * @returns the running worker. @throws when the database is unreachable or the migrations fail.
 */
export async function startWorker(opts: {
  connectionString: string;
  log: JobLog;
  concurrency?: number;
  /** Crontab override (tests pass "" so no schedule fires); default CRONTAB of lib/jobs/tasks.ts. */
  crontab?: string;
  /** Delivery of chat messages and webhooks (issue 9): default from the environment; null = this
   * runner does not deliver (its jobs stay queued for another runner). */
  delivery?: DeliveryConfig | null;
}): Promise<JobWorker> {
  const { connectionString, log } = opts;
  const logger = graphileLogger(processLogger("worker"));
  const pgPool = new pg.Pool({ connectionString, max: Math.max(4, (opts.concurrency ?? 2) + 2) });
  // graphile-worker asks for both handlers on a pool it is given: a lost idle or checked-out client
  // must not become an unhandled 'error' event. pg removes broken clients by itself.
  let stopping = false;
  pgPool.on("error", (err) => {
    if (!stopping) log(`worker pool: ${err.message}`);
  });
  pgPool.on("connect", (client) => client.on("error", () => {}));
  // Our own emitter, so the pool's id is known from its creation (`pool:create`) on.
  const events = new EventEmitter() as WorkerEvents;
  let poolId: string | null = null;
  events.on("pool:create", ({ workerPool }) => {
    poolId = workerPool.id;
  });
  logRunnerErrors(events, log, () => stopping);
  const options = {
    pgPool,
    events,
    concurrency: opts.concurrency ?? 2,
    noHandleSignals: true,
    pollInterval: 2000,
    logger,
    crontab: opts.crontab ?? CRONTAB,
    taskList: createTaskList(log, null),
  };
  const deliveryConfig = opts.delivery === undefined ? deliveryConfigFromEnv() : opts.delivery;
  const delivery = deliveryConfig ? createDeliveryDeps(deliveryConfig, log, db) : null;
  options.taskList = createTaskList(log, delivery);
  let runner: Runner;
  try {
    await runMigrations(options);
    await recoverDeadWorkers(db, log);
    if (delivery) await recoverStaleLocks(db, log);
    runner = await run(options);
  } catch (err) {
    await pgPool.end().catch(() => {});
    throw err;
  }
  const id = poolId as string | null;
  let heartbeat: Awaited<ReturnType<typeof startHeartbeat>>;
  try {
    if (!id) throw new Error("graphile-worker did not report its pool id");
    heartbeat = await startHeartbeat(db, id, log);
  } catch (err) {
    await runner.stop().catch(() => {});
    await pgPool.end().catch(() => {});
    throw err;
  }
  const lostCompletions = watchLostCompletions(runner, pgPool, () => id, log);
  const stopNudging = nudgeAfterQueuedJobs(runner);
  // Hands the jobs that writes put in the job outbox to graphile-worker (lib/jobs/outbox.ts).
  const dispatcher = startOutboxDispatcher(pgPool, log);
  // With the real schedule, sweep once right away so pending categorizations and due summaries
  // (e.g. of a freshly seeded demo) do not wait for the first minute boundary.
  if (opts.crontab === undefined) await runner.addJob("categorize_sweep", {}, { jobKey: "categorize_sweep:start" }).catch(() => {});
  // Slack connected: sync its people and channels now (issue 11), then hourly via the crontab.
  if (opts.crontab === undefined && slackSettings()) await runner.addJob("slack_sync", {}, { jobKey: SLACK_SYNC_JOB_KEY });
  let stopped: Promise<void> | null = null;
  log(
    `Job worker running (concurrency ${options.concurrency}; schedule_tick and categorize_sweep every minute, cleanup_idempotency and slack_sync hourly)`,
  );
  if (deliveryConfig) {
    const via = [deliveryConfig.slack ? `Slack (${deliveryConfig.slack.apiUrl ?? "https://slack.com/api/"})` : "the built-in channel feed"];
    via.push(deliveryConfig.smtp ? "e-mail over SMTP" : "no e-mail (SMTP_URL unset: direct messages go to the feed and this log)");
    log(`Delivery: ${via.join(", ")}; webhooks enabled.`);
  }
  return {
    runner,
    poolId: id,
    stop: () => {
      stopping = true;
      stopNudging();
      lostCompletions.stop();
      stopped ??= dispatcher
        .stop()
        .then(() => runner.stop())
        .catch((err: unknown) => log(`worker stop: ${(err as Error)?.message ?? err}`))
        .then(() => poolSettled(pgPool))
        .then(() => heartbeat.stop())
        .then(() => pgPool.end())
        .then(() => {
          if (delivery) closeDeliveryDeps(delivery);
        })
        .catch(() => {});
      return stopped;
    },
  };
}

/**
 * Waits, at most `maxMs` (milliseconds), until no client of `pool` is checked out or waited for.
 * graphile-worker 0.17 writes a job's completion without awaiting it, so a job that ended during a
 * graceful stop could still have its completion queued on the pool when `runner.stop()` resolved;
 * ending the pool then dropped it and left the job locked (a delivery job until recoverStaleLocks,
 * 2 minutes; others 4 hours). Its batcher (`completeJobBatchDelay` ≥ 0), which shutdown flushes,
 * stops the whole runner on one failed completion (0.17 does not retry it), so it is not used.
 */
async function poolSettled(pool: pg.Pool, maxMs = 5000): Promise<void> {
  const deadline = Date.now() + maxMs;
  await new Promise((resolve) => setImmediate(resolve));
  while ((pool.waitingCount > 0 || pool.idleCount < pool.totalCount) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Logs the runner's error events (issue 40) instead of leaving them to graphile-worker's logger
 * alone: losing the LISTEN connection (it reconnects by itself), failing to fetch a job (it polls
 * again) and a fatal error of the pool (it stops; the worker process then exits and its supervisor
 * starts a new one). Quiet while stopping.
 */
function logRunnerErrors(events: WorkerEvents, log: JobLog, stopping: () => boolean): void {
  const text = (error: unknown) => (error as Error)?.message ?? String(error);
  events.on("pool:listen:error", ({ error }) => {
    if (!stopping()) log(`worker: lost its LISTEN connection (${text(error)}); reconnecting`);
  });
  events.on("worker:getJob:error", ({ error }) => {
    if (!stopping()) log(`worker: fetching a job failed (${text(error)}); trying again`);
  });
  events.on("pool:fatalError", ({ error, action }) => {
    log(`worker: fatal error of the job pool in ${action}: ${text(error)}`);
  });
}

/** Milliseconds after which a worker that found nothing right after a job of a named queue looks again. */
const QUEUED_JOB_RETRY_MS = 10;

/**
 * Keeps the jobs of one named queue (a channel's or a recipient's delivery jobs: the destination's
 * job and the one enqueued while it ran, migration `*_delivery_by_destination`) moving at the
 * speed of its jobs. graphile-worker 0.17 asks for a
 * worker's next job right after the job ends, without waiting for the statement that completes
 * it; a job of a named queue holds its queue until that statement commits, so the worker usually
 * found the queue still locked, nothing else to run, and slept `pollInterval` (2 s): a queue drained
 * at concurrency ÷ pollInterval, 1 message per second (`npm run bench:delivery` with
 * BENCH_CHANNELS=1). Here a worker that finds no job right after running a queued one is nudged
 * once more `QUEUED_JOB_RETRY_MS` later, through the runner's documented events and
 * `WorkerPool.nudge`; if that finds nothing either, it waits for the next poll or notification as
 * before. @returns a function that stops the nudging (called on stop).
 */
function nudgeAfterQueuedJobs(runner: Runner): () => void {
  const justRanQueued = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const onComplete = ({ worker, job }: { worker: Worker; job: { job_queue_id: number | null } }) => {
    if (job.job_queue_id !== null) justRanQueued.add(worker.workerId);
  };
  // A worker that found its next job is no longer "just after a queued job".
  const onStart = ({ worker }: { worker: Worker }) => {
    justRanQueued.delete(worker.workerId);
  };
  const onEmpty = ({ worker }: { worker: Worker }) => {
    if (!justRanQueued.delete(worker.workerId)) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      try {
        worker.workerPool.nudge(1);
      } catch {
        // The pool shut down on its own (a fatal error): nothing to nudge.
      }
    }, QUEUED_JOB_RETRY_MS);
    timers.add(timer);
  };
  runner.events.on("job:complete", onComplete);
  runner.events.on("job:start", onStart);
  runner.events.on("worker:getJob:empty", onEmpty);
  return () => {
    runner.events.off("job:complete", onComplete);
    runner.events.off("job:start", onStart);
    runner.events.off("worker:getJob:empty", onEmpty);
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
