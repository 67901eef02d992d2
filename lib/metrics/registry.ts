/**
 * Prometheus metrics (issue 44; README "Health and metrics"), served by `GET /metrics`
 * (app/metrics/route.ts) with prom-client:
 *
 * - process and Node.js metrics of THIS process (prom-client's default collectors);
 * - `checkin_http_requests_total{route,method,status}` and
 *   `checkin_http_request_duration_seconds{route,method}`: API requests by route template
 *   (`/v2/reports/{reportId}`), counted by `timedRoute` (lib/api/route.ts `apiPath`);
 * - read from the database on each scrape (`refreshDatabaseMetrics`, a few small queries):
 *   `checkin_jobs{task,state}` (graphile-worker: queued, running, failed),
 *   `checkin_chat_deliveries{platform,state}` (outbox rows pending or failed; `platform` is the
 *   adapter that delivered the row before, `unassigned` when none has),
 *   `checkin_chat_delivery_lag_seconds{platform}` (age of the oldest message waiting for delivery),
 *   `checkin_chat_delivery_attempts_24h{platform}` and `checkin_chat_delivery_failures_24h{platform}`
 *   (sends and transient failures of messages changed in the last 24 hours),
 *   `checkin_scheduler_lag_seconds` (how long the most overdue active standup or poll has been
 *   due without its run being opened: 0 when the scheduler keeps up),
 *   `checkin_webhook_deliveries{outcome}` (pending, delivered, failed),
 *   `checkin_wal_archive_segments{outcome}` (archived, failed: pg_stat_archiver; a growing
 *   `failed` means the backup folder is full or unwritable) and
 *   `checkin_service_restarts{process}` (rows of `service_events`, when that table exists);
 * - `checkin_db_pool_connections{state}` (total, idle, waiting, max) of this process's pg pool.
 *
 * Every Next.js server process keeps its own registry: with several instances, scrape each one
 * (the database-backed gauges are the same everywhere; the HTTP and process ones are per process).
 * The registry lives on `globalThis`, so route bundles that load this module twice share it.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { db, sharedPoolStats, type Tx } from "@/lib/db";
import { noteRequest } from "@/lib/logger";

type Metrics = {
  registry: Registry;
  requests: Counter<"route" | "method" | "status">;
  duration: Histogram<"route" | "method">;
  jobs: Gauge<"task" | "state">;
  chat: Gauge<"platform" | "state">;
  webhooks: Gauge<"outcome">;
  chatLag: Gauge<"platform">;
  chatAttempts: Gauge<"platform">;
  chatFailures: Gauge<"platform">;
  schedulerLag: Gauge;
  pool: Gauge<"state">;
  restarts: Gauge<"process">;
  archiver: Gauge<"outcome">;
  scrapeErrors: Counter<"source">;
};

const KEY = Symbol.for("checkin.metrics");

/** The process's metrics (created on first use). */
export function metrics(): Metrics {
  const g = globalThis as { [KEY]?: Metrics };
  if (g[KEY]) return g[KEY];
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  g[KEY] = {
    registry,
    requests: new Counter({
      name: "checkin_http_requests_total",
      help: "API requests answered by this process, by route template, method and status",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    duration: new Histogram({
      name: "checkin_http_request_duration_seconds",
      help: "Time from the route handler's start to its response, by route template and method",
      labelNames: ["route", "method"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    jobs: new Gauge({
      name: "checkin_jobs",
      help: "graphile-worker jobs by task and state (queued, running, failed)",
      labelNames: ["task", "state"],
      registers,
    }),
    chat: new Gauge({
      name: "checkin_chat_deliveries",
      help: "Chat outbox messages not delivered, by platform and state (pending, failed)",
      labelNames: ["platform", "state"],
      registers,
    }),
    webhooks: new Gauge({ name: "checkin_webhook_deliveries", help: "Webhook deliveries by outcome", labelNames: ["outcome"], registers }),
    chatLag: new Gauge({
      name: "checkin_chat_delivery_lag_seconds",
      help: "Age in seconds of the oldest chat message waiting for delivery, by platform",
      labelNames: ["platform"],
      registers,
    }),
    chatAttempts: new Gauge({
      name: "checkin_chat_delivery_attempts_24h",
      help: "Sends of chat messages changed in the last 24 hours, by platform",
      labelNames: ["platform"],
      registers,
    }),
    chatFailures: new Gauge({
      name: "checkin_chat_delivery_failures_24h",
      help: "Transient delivery failures of chat messages changed in the last 24 hours, by platform",
      labelNames: ["platform"],
      registers,
    }),
    schedulerLag: new Gauge({
      name: "checkin_scheduler_lag_seconds",
      help: "Seconds the most overdue active standup or poll has been due without its run opened (0: on time)",
      registers,
    }),
    pool: new Gauge({
      name: "checkin_db_pool_connections",
      help: "This process's database pool: total and idle connections, waiting requests, configured max",
      labelNames: ["state"],
      registers,
      collect() {
        const stats = sharedPoolStats();
        this.reset();
        if (!stats) return;
        for (const state of ["total", "idle", "waiting", "max"] as const) this.set({ state }, stats[state]);
      },
    }),
    restarts: new Gauge({
      name: "checkin_service_restarts",
      help: "Restarts of supervised service processes recorded in service_events, by process",
      labelNames: ["process"],
      registers,
    }),
    archiver: new Gauge({
      name: "checkin_wal_archive_segments",
      help: "WAL segments the PostgreSQL server archived or failed to archive since its statistics reset (pg_stat_archiver)",
      labelNames: ["outcome"],
      registers,
    }),
    scrapeErrors: new Counter({
      name: "checkin_metrics_scrape_errors_total",
      help: "Database reads for /metrics that failed, by source",
      labelNames: ["source"],
      registers,
    }),
  };
  return g[KEY];
}

/**
 * Wraps an API route handler so its requests are counted and timed under `route` (the template,
 * never the concrete path: bounded label values), and logged under it (lib/logger.ts `noteRequest`;
 * the first argument is the Request). Costs two clock reads and two map updates.
 */
export function timedRoute<A extends unknown[]>(route: string, method: string, handler: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    noteRequest((args[0] as Request | undefined)?.headers, { route });
    const m = metrics();
    const start = performance.now();
    let status = 500;
    try {
      const response = await handler(...args);
      status = response.status;
      return response;
    } finally {
      m.requests.inc({ route, method, status: String(status) });
      m.duration.observe({ route, method }, (performance.now() - start) / 1000);
    }
  };
}

async function read<T>(source: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch {
    metrics().scrapeErrors.inc({ source });
    return null;
  }
}

/** Sets the database-backed gauges from the database (one read each; a failed one leaves its gauge empty and counts an error). */
export async function refreshDatabaseMetrics(client: Tx = db): Promise<void> {
  const m = metrics();
  const [jobs, chat, webhooks, restarts, archiver, delivery, scheduler] = await Promise.all([
    read(
      "jobs",
      () =>
        client.$queryRaw<Array<{ task: string; state: string; n: number }>>`
        SELECT task_identifier AS task,
               CASE WHEN locked_at IS NOT NULL THEN 'running' WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END AS state,
               count(*)::int AS n
        FROM graphile_worker.jobs GROUP BY 1, 2`,
    ),
    read(
      "chat",
      () =>
        client.$queryRaw<Array<{ platform: string; state: string; n: number }>>`
        SELECT coalesce(delivered_via, 'unassigned') AS platform, delivery_state::text AS state, count(*)::int AS n
        FROM chat_messages WHERE delivery_state IN ('pending', 'failed') AND deleted_at IS NULL GROUP BY 1, 2`,
    ),
    read(
      "webhooks",
      () =>
        client.$queryRaw<Array<{ outcome: string; n: number }>>`
        SELECT state::text AS outcome, count(*)::int AS n FROM webhook_deliveries GROUP BY 1`,
    ),
    read("restarts", async () => {
      const [{ exists }] = await client.$queryRaw<Array<{ exists: boolean }>>`SELECT to_regclass('service_events') IS NOT NULL AS exists`;
      if (!exists) return [];
      return client.$queryRaw<Array<{ process: string; n: number }>>`SELECT process, count(*)::int AS n FROM service_events GROUP BY 1`;
    }),
    read(
      "archiver",
      () =>
        client.$queryRaw<Array<{ archived: number; failed: number }>>`
        SELECT archived_count::int AS archived, failed_count::int AS failed FROM pg_stat_archiver`,
    ),
    read(
      "delivery",
      () =>
        client.$queryRaw<Array<{ platform: string; lag: number | null; attempts: number; failures: number }>>`
        SELECT coalesce(delivered_via, 'unassigned') AS platform,
               extract(epoch FROM now() - min(updated_at) FILTER (WHERE delivery_state = 'pending'))::float8 AS lag,
               coalesce(sum(delivery_attempts), 0)::int AS attempts, coalesce(sum(delivery_failures), 0)::int AS failures
        FROM chat_messages WHERE updated_at > now() - interval '24 hours' OR delivery_state = 'pending'
        GROUP BY 1`,
    ),
    read(
      "scheduler",
      () =>
        client.$queryRaw<Array<{ lag: number }>>`
        SELECT coalesce(extract(epoch FROM now() - min(next_run_at)), 0)::float8 AS lag
        FROM checkins WHERE state = 'active' AND next_run_at <= now() - interval '1 minute'`,
    ),
  ]);
  m.chatLag.reset();
  m.chatAttempts.reset();
  m.chatFailures.reset();
  for (const r of delivery ?? []) {
    m.chatLag.set({ platform: r.platform }, r.lag ?? 0);
    m.chatAttempts.set({ platform: r.platform }, r.attempts);
    m.chatFailures.set({ platform: r.platform }, r.failures);
  }
  if (scheduler?.[0]) m.schedulerLag.set(scheduler[0].lag);
  m.jobs.reset();
  for (const r of jobs ?? []) m.jobs.set({ task: r.task, state: r.state }, r.n);
  m.chat.reset();
  for (const r of chat ?? []) m.chat.set({ platform: r.platform, state: r.state }, r.n);
  m.webhooks.reset();
  for (const outcome of ["pending", "delivered", "failed"]) if (webhooks) m.webhooks.set({ outcome }, 0);
  for (const r of webhooks ?? []) m.webhooks.set({ outcome: r.outcome }, r.n);
  m.restarts.reset();
  for (const r of restarts ?? []) m.restarts.set({ process: r.process }, r.n);
  m.archiver.reset();
  if (archiver?.[0]) {
    m.archiver.set({ outcome: "archived" }, archiver[0].archived);
    m.archiver.set({ outcome: "failed" }, archiver[0].failed);
  }
}

/** The exposition text of every metric (refreshing the database-backed ones first) and its content type. */
export async function scrape(client: Tx = db): Promise<{ body: string; contentType: string }> {
  await refreshDatabaseMetrics(client);
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
