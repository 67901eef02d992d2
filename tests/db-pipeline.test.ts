/**
 * Pipelined connections (lib/db-pipeline.ts) on the real test database: statements sent in one
 * event-loop turn leave in one socket write per connection and each gets its own answer; an error
 * ends only its statement; a terminated backend fails the statement in flight and is replaced; a
 * refused connection fails its statements instead of hanging; a busy set hands the caller back to
 * its pool; `end` closes the connections. And `queryRows` (lib/db.ts): reads outside transactions
 * go to the pipelined connections, writes and locking reads to the pool, statements inside a
 * transaction to its connection, nothing to them with `DATABASE_PIPELINE=off`.
 */
import net from "node:net";
import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { isPipelinable, newPrismaClient, PIPELINE_APPLICATION_NAME, queryRows, transaction } from "@/lib/db";
import { PipelinedConnections } from "@/lib/db-pipeline";
import { Prisma } from "@/lib/generated/prisma/client";
import { withPgClient } from "@/lib/runtime/pg-once";

const url = process.env.DATABASE_URL as string;
const opened: PipelinedConnections[] = [];

/** A set on the test database whose connections carry `name` as application_name. */
function connections(name: string, size = 2, maxInFlight = 8): PipelinedConnections {
  const set = new PipelinedConnections({ connectionString: url, application_name: name }, size, maxInFlight);
  opened.push(set);
  return set;
}

/** Backends of the test database with this application_name. */
async function backends(admin: pg.Client, name: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [name]);
  return rows.map((r) => r.pid);
}

const withAdmin = <T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> => withPgClient(url, fn);

/** Counts the socket writes of every net.Socket (Node's `_writev` and `_write`) until `restore()`. */
function countSocketWrites(): { writes: () => number; restore: () => void } {
  const proto = net.Socket.prototype as unknown as Record<"_writev" | "_write", (...a: unknown[]) => unknown>;
  const original = { _writev: proto._writev, _write: proto._write };
  let writes = 0;
  for (const key of ["_writev", "_write"] as const) {
    proto[key] = function (this: unknown, ...args: unknown[]) {
      writes++;
      return original[key].apply(this, args);
    };
  }
  return {
    writes: () => writes,
    restore: () => Object.assign(proto, original),
  };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((set) => set.end()));
  delete process.env.DATABASE_PIPELINE;
});

describe("PipelinedConnections", () => {
  it("sends the statements of one turn in one write per connection, each with its own answer, on at most `size` backends", async () => {
    const set = connections("pipeline-test-batch", 2, 100);
    // Open and warm both connections first (a connecting socket is not corked).
    await Promise.all([0, 1].map((i) => set.query({ text: "SELECT $1::int AS n", values: [i] })));
    const counter = countSocketWrites();
    let results: Array<pg.QueryResult<{ n: number; pid: number }> | null>;
    try {
      results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => set.query({ text: "SELECT $1::int AS n, pg_backend_pid() AS pid", values: [i] })),
      );
    } finally {
      counter.restore();
    }
    expect(results.map((r) => r?.rows[0].n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(new Set(results.map((r) => r?.rows[0].pid)).size).toBeLessThanOrEqual(2);
    // 40 statements, 2 connections: one corked write each (not 40).
    expect(counter.writes()).toBeLessThanOrEqual(2);
  });

  it("ends only the failing statement of a batch", async () => {
    const set = connections("pipeline-test-error", 1);
    const [before, failed, after] = await Promise.allSettled([
      set.query({ text: "SELECT 1 AS n" }),
      set.query({ text: "SELECT 1 / $1::int AS n", values: [0] }),
      set.query({ text: "SELECT 3 AS n" }),
    ]);
    expect(before.status === "fulfilled" && before.value?.rows[0].n).toBe(1);
    expect(failed.status).toBe("rejected");
    expect(failed.status === "rejected" && (failed.reason as { code?: string }).code).toBe("22012"); // division_by_zero
    expect(after.status === "fulfilled" && after.value?.rows[0].n).toBe(3);
  });

  it("fails the statement in flight when its backend is terminated, and answers the next one on a new connection", async () => {
    const name = "pipeline-test-terminate";
    const set = connections(name, 1);
    await set.query({ text: "SELECT 1" });
    const sleeping = set.query({ text: "SELECT pg_sleep(30)" });
    await withAdmin(async (admin) => {
      const [pid] = await backends(admin, name);
      expect(pid).toBeGreaterThan(0);
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      const started = Date.now();
      await expect(sleeping).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
      const next = await set.query({ text: "SELECT pg_backend_pid() AS pid" });
      expect(next?.rows[0].pid).not.toBe(pid);
    });
  });

  it("fails the statements of a connection that cannot be opened instead of hanging, and tries again on the next call", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const set = new PipelinedConnections({ host: "127.0.0.1", port, user: "x", database: "x", connectionTimeoutMillis: 2_000 }, 1, 8);
    opened.push(set);
    await expect(set.query({ text: "SELECT 1" })).rejects.toThrow();
    await expect(set.query({ text: "SELECT 1" })).rejects.toThrow(); // a new attempt, failing the same way
  });

  it("takes no more statements than size × maxInFlight at once (the caller uses its pool), and none once ended", async () => {
    const set = connections("pipeline-test-full", 1, 2);
    const first = set.query({ text: "SELECT 1" });
    const second = set.query({ text: "SELECT 2" });
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(set.query({ text: "SELECT 3" })).toBeNull();
    await Promise.all([first, second]);
    expect(set.query({ text: "SELECT 4" })).not.toBeNull();
    await set.end();
    expect(set.query({ text: "SELECT 5" })).toBeNull();
  });

  it("closes its connections on end", async () => {
    const name = "pipeline-test-end";
    const set = connections(name, 2);
    await Promise.all([set.query({ text: "SELECT 1" }), set.query({ text: "SELECT 2" })]);
    await withAdmin(async (admin) => {
      expect((await backends(admin, name)).length).toBe(2);
      await set.end();
      for (let i = 0; i < 50 && (await backends(admin, name)).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await backends(admin, name)).toEqual([]);
    });
  });
});

describe("queryRows and the pipelined connections", () => {
  const appName = Prisma.sql`SELECT current_setting('application_name') AS app`;

  it("sends a read outside a transaction to a pipelined connection", async () => {
    const [row] = await queryRows<{ app: string }>(appName);
    expect(row.app).toBe(PIPELINE_APPLICATION_NAME);
  });

  it("sends writes and locking reads through the pool, and a transaction's statements to its connection", async () => {
    const [locked] = await queryRows<{ app: string }>(
      Prisma.sql`SELECT current_setting('application_name') AS app FROM (SELECT id FROM teams ORDER BY id LIMIT 1 FOR SHARE) t
        UNION ALL SELECT current_setting('application_name')`,
    );
    expect(locked.app).not.toBe(PIPELINE_APPLICATION_NAME);
    const inTx = await transaction((tx) => queryRows<{ app: string }>(appName, tx));
    expect(inTx[0].app).not.toBe(PIPELINE_APPLICATION_NAME);
  });

  it("sends nothing to pipelined connections with DATABASE_PIPELINE=off", async () => {
    process.env.DATABASE_PIPELINE = "off";
    const client = newPrismaClient(url);
    try {
      const [row] = await queryRows<{ app: string }>(appName, client);
      expect(row.app).not.toBe(PIPELINE_APPLICATION_NAME);
    } finally {
      await client.$disconnect();
    }
  });

  it("closes a client's pipelined connections with the client", async () => {
    const client = newPrismaClient(url);
    await queryRows(appName, client);
    await withAdmin(async (admin) => {
      const before = (await backends(admin, PIPELINE_APPLICATION_NAME)).length;
      expect(before).toBeGreaterThan(0);
      await client.$disconnect();
      let after = before;
      for (let i = 0; i < 50 && after >= before; i++) {
        await new Promise((r) => setTimeout(r, 20));
        after = (await backends(admin, PIPELINE_APPLICATION_NAME)).length;
      }
      expect(after).toBeLessThan(before);
    });
  });

  it("classifies statements: reads pipelinable; writes, data-modifying CTEs, row locks, notifications and jobs not", () => {
    expect(isPipelinable("SELECT r.updated_at FROM reports r WHERE r.id = $1")).toBe(true);
    expect(isPipelinable("WITH page AS MATERIALIZED (SELECT id FROM reports) SELECT * FROM page")).toBe(true);
    for (const text of [
      "INSERT INTO answers (text) VALUES ($1)",
      "WITH rep AS (UPDATE reports SET status = 'submitted' RETURNING id) SELECT id FROM rep",
      "WITH gone AS (DELETE FROM votes RETURNING id) SELECT count(*) FROM gone",
      "SELECT id FROM reports WHERE id = $1 FOR UPDATE",
      "SELECT id FROM reports WHERE id = $1 FOR NO KEY UPDATE",
      "SELECT id FROM reports WHERE id = $1 FOR KEY SHARE",
      "SELECT pg_notify('api_keys', $1)",
      "SELECT graphile_worker.add_job('x', '{}')",
      "SELECT checkin_enqueue_job(identifier := $1::text, payload := $2::json)",
      "SELECT pg_advisory_xact_lock(1)",
    ])
      expect(isPipelinable(text), text).toBe(false);
  });
});
