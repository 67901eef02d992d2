/**
 * GET /metrics (issue 44), scraped in process against a database of its own: 404 without
 * METRICS_TOKEN, 401 with a wrong token, and with the token the Prometheus text with process
 * metrics, API requests by route template, jobs by task and state, undelivered chat messages,
 * webhook outcomes and service restarts (when `service_events` exists).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/metrics/route";
import { GET as listStandups } from "@/app/v2/standups/route";
import { call } from "@/tests/http";
import { runSql, useIsolatedDatabase } from "@/tests/isolated-db";

const TOKEN = "metrics-token-0123456789";
let url: string;

beforeAll(async () => {
  url = await useIsolatedDatabase("metrics");
});

const sql = (text: string) => runSql(url, text);

const scrape = (authorization?: string) =>
  metricsRoute(new Request("http://localhost/metrics", { headers: authorization ? { authorization } : {} }));

describe("GET /metrics", () => {
  it("does not exist without METRICS_TOKEN and refuses a wrong token", async () => {
    delete process.env.METRICS_TOKEN;
    expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(404);
    process.env.METRICS_TOKEN = TOKEN;
    const wrong = await scrape("Bearer nope");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await scrape()).status).toBe(401);
  });

  it("serves process, HTTP, job, delivery and restart metrics", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    expect((await call(listStandups, { path: "/v2/standups" })).status).toBe(401);
    expect((await call(listStandups, { path: "/v2/standups" })).status).toBe(401);
    await sql("SELECT graphile_worker.add_job('metrics_probe', '{}'::json)");
    await sql("SELECT graphile_worker.add_job('metrics_probe', '{}'::json)");
    await sql(`INSERT INTO teams (chat_id, name) VALUES ('TMETRICS', 'Metrics')`);
    await sql(`INSERT INTO chat_messages (team_id, ts, kind, text, delivery_state, delivered_via, delivery_attempts, delivery_failures, updated_at)
      SELECT id, 'm1', 'report', 'x', 'failed', 'slack', 3, 2, now() FROM teams WHERE chat_id = 'TMETRICS'`);
    await sql(`INSERT INTO chat_messages (team_id, ts, kind, text, updated_at)
      SELECT id, 'm2', 'report', 'y', now() - interval '90 seconds' FROM teams WHERE chat_id = 'TMETRICS'`);
    // A user to own standups, and one active standup whose run is 10 minutes overdue.
    await sql(`INSERT INTO users (team_id, chat_id, username, email, realname, firstname)
      SELECT id, 'UMETRICS', 'metrics', 'metrics@example.com', 'Metrics', 'Metrics' FROM teams WHERE chat_id = 'TMETRICS'`);
    await sql(`INSERT INTO checkins (team_id, kind, name, owner_id, state, next_run_at)
      SELECT t.id, 'standup', 'Overdue', u.id, 'active', now() - interval '10 minutes'
      FROM teams t JOIN users u ON u.team_id = t.id WHERE t.chat_id = 'TMETRICS'`);
    await sql(
      `CREATE TABLE IF NOT EXISTS service_events (id bigserial PRIMARY KEY, process text NOT NULL, reason text NOT NULL, pid int, at timestamptz NOT NULL DEFAULT now())`,
    );
    await sql(`INSERT INTO service_events (process, reason) VALUES ('worker', 'exit 1'), ('worker', 'SIGKILL'), ('web', 'exit 1')`);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain("process_cpu_user_seconds_total");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    expect(text).toContain('checkin_http_requests_total{route="/v2/standups",method="GET",status="401"} 2');
    expect(text).toMatch(/checkin_http_request_duration_seconds_count\{route="\/v2\/standups",method="GET"\} 2/);
    expect(text).toContain('checkin_jobs{task="metrics_probe",state="queued"} 2');
    expect(text).toContain('checkin_chat_deliveries{platform="slack",state="failed"} 1');
    expect(text).toContain('checkin_chat_deliveries{platform="unassigned",state="pending"} 1');
    expect(text).toContain('checkin_webhook_deliveries{outcome="failed"} 0');
    expect(text).toContain('checkin_chat_delivery_attempts_24h{platform="slack"} 3');
    expect(text).toContain('checkin_chat_delivery_failures_24h{platform="slack"} 2');
    const lag = Number(/checkin_chat_delivery_lag_seconds\{platform="unassigned"\} ([\d.]+)/.exec(text)?.[1]);
    expect(lag).toBeGreaterThanOrEqual(89);
    const schedulerLag = Number(/checkin_scheduler_lag_seconds ([\d.]+)/.exec(text)?.[1]);
    expect(schedulerLag).toBeGreaterThanOrEqual(599);
    expect(text).toMatch(/checkin_db_pool_connections\{state="max"\} \d+/);
    expect(text).toMatch(/checkin_db_pool_connections\{state="total"\} [1-9]/);
    expect(text).toContain('checkin_service_restarts{process="worker"} 2');
    expect(text).toContain('checkin_service_restarts{process="web"} 1');
    expect(text).toMatch(/checkin_wal_archive_segments\{outcome="failed"\} \d+/);
    expect(text).not.toContain("checkin_metrics_scrape_errors_total{");
  });
});
