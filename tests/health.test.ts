/**
 * /healthz and /readyz (issue 44) against a database of their own: ready when migrated, 503 naming
 * the failed check when a migration is pending or unknown, when the worker's heartbeat is stale,
 * and when the database does not answer; a missing heartbeat table is "no worker info".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as healthz } from "@/app/healthz/route";
import { GET as readyz } from "@/app/readyz/route";
import { newPrismaClient } from "@/lib/db";
import { readiness } from "@/lib/http/health";
import { listMigrationNames } from "@/lib/runtime/migrate";
import { runSql, useIsolatedDatabase } from "@/tests/isolated-db";

let url: string;
beforeAll(async () => {
  url = await useIsolatedDatabase("health");
});

const sql = (text: string) => runSql(url, text);

describe("health endpoints", () => {
  it("GET /healthz answers 200 without a database", async () => {
    const res = healthz();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ status: "ok", pid: process.pid });
  });

  it("GET /readyz is 200 on a migrated database without worker info", async () => {
    await sql("DROP TABLE IF EXISTS worker_heartbeats");
    const res = await readyz();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ready",
      failed: [],
      checks: { database: { ok: true }, migrations: { ok: true }, worker: { ok: true, info: "no worker info" } },
    });
  });

  it("names a pending and an unknown migration", async () => {
    const local = [...listMigrationNames(), "29991231000000_from_the_future"];
    const r = await readiness({ migrations: local });
    expect(r.failed).toEqual(["migrations"]);
    expect(r.checks.migrations).toEqual({ ok: false, pending: ["29991231000000_from_the_future"], unknown: [] });
    const older = listMigrationNames().slice(0, -1);
    const r2 = await readiness({ migrations: older });
    expect(r2.checks.migrations).toEqual({ ok: false, pending: [], unknown: [listMigrationNames().at(-1)] });
  });

  it("fails on a stale worker heartbeat and passes on a fresh one", async () => {
    await sql(`CREATE TABLE IF NOT EXISTS worker_heartbeats (worker_id text PRIMARY KEY, pid int NOT NULL, host text NOT NULL,
      started_at timestamptz(3) NOT NULL DEFAULT now(), beat_at timestamptz(3) NOT NULL DEFAULT now())`);
    await sql("INSERT INTO worker_heartbeats (worker_id, pid, host, beat_at) VALUES ('pool-dead', 1, 'h', now() - interval '5 minutes')");
    const res = await readyz();
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.failed).toEqual(["worker"]);
    expect(body.checks.worker).toEqual({ ok: false, workers: 1, fresh: 0 });
    await sql("INSERT INTO worker_heartbeats (worker_id, pid, host) VALUES ('pool-live', 2, 'h')");
    expect((await readyz()).status).toBe(200);
    await sql("DELETE FROM worker_heartbeats");
    expect((await readiness()).checks.worker).toEqual({ ok: true, workers: 0, info: "no worker has reported" });
  });

  it("is 503 naming the database when it does not answer", async () => {
    const unreachable = newPrismaClient("postgresql://nobody:x@127.0.0.1:9/none");
    try {
      const r = await readiness({ client: unreachable, timeoutMs: 2000 });
      expect(r.ready).toBe(false);
      expect(r.failed).toEqual(["database", "migrations", "worker"]);
      expect(r.checks.database.error).toBeTruthy();
    } finally {
      await unreachable.$disconnect();
    }
  });
});
