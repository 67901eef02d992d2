/**
 * The internals lib/db.ts and lib/db-pipeline.ts rely on, pinned (issue 51 step 6): the connection
 * plumbing stays because it pays its way (docs/scaling.md "Performance machinery"), and these tests
 * fail as soon as an upgrade changes what it reaches for, instead of every write breaking quietly.
 *
 * - `transaction` learns a transaction's pg connection from `TransactionAwarePool.connect()`: it
 *   relies on `@prisma/adapter-pg`'s `startTransaction` checking out exactly one connection with a
 *   promise-style `pool.connect()` (no arguments) and handing it back with `release()` at commit,
 *   while its plain queries go through `pool.query` (callback-style connect). Checked against the
 *   installed adapter, whose exact version is asserted: upgrading it means re-reading its
 *   `startTransaction` (node_modules/@prisma/adapter-pg/dist/index.mjs) and updating the version here.
 * - `PipelinedConnections` corks the socket of a pg client in pipeline mode: `client.connection.stream`.
 * - Under concurrent transactions (more than the pool's connections), `queryRows(q, tx)` runs in
 *   tx's own transaction: the same backend and transaction id as Prisma's `tx.$queryRaw`.
 */
import fs from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { queryRows, type Tx, transaction } from "@/lib/db";
import { databaseUrl } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";

/** The adapter version whose `startTransaction` lib/db.ts `TransactionAwarePool` was checked against. */
const CHECKED_ADAPTER_VERSION = "7.10.0";

/** The installed adapter's version (its package.json is not in its exports map). */
const installedAdapterVersion = (): string =>
  JSON.parse(fs.readFileSync(path.join(process.cwd(), "node_modules", "@prisma", "adapter-pg", "package.json"), "utf8")).version;

/** A pg pool that records the argument count of every `connect` call. */
class RecordingPool extends pg.Pool {
  readonly connectArgs: number[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded connect() signature is re-exposed unchanged.
  override connect(...args: unknown[]): any {
    this.connectArgs.push(args.length);
    return (super.connect as unknown as (...a: unknown[]) => unknown).apply(this, args);
  }
}

describe("@prisma/adapter-pg internals used by lib/db.ts", () => {
  it(`is version ${CHECKED_ADAPTER_VERSION}, the one TransactionAwarePool was checked against`, () => {
    expect(installedAdapterVersion()).toBe(CHECKED_ADAPTER_VERSION);
  });

  it("checks a transaction's connection out with one promise-style pool.connect() and releases it at commit; plain queries use pool.query", async () => {
    const pool = new RecordingPool({ connectionString: databaseUrl(), max: 2 });
    const adapter = await new PrismaPg(pool).connect();
    try {
      await adapter.queryRaw({ sql: "SELECT 1 AS one", args: [], argTypes: [] });
      // pool.query connects with a callback: not the promise-style call TransactionAwarePool watches.
      expect(pool.connectArgs).toStrictEqual([1]);
      const tx = await adapter.startTransaction();
      expect(pool.connectArgs).toStrictEqual([1, 0]);
      expect(pool.totalCount - pool.idleCount).toBe(1); // checked out for the transaction
      const inTx = await tx.queryRaw({ sql: "SELECT txid_current()::text AS txid, now()::text AS at", args: [], argTypes: [] });
      const again = await tx.queryRaw({ sql: "SELECT txid_current()::text AS txid", args: [], argTypes: [] });
      expect(again.rows[0][0]).toBe(inTx.rows[0][0]); // BEGIN was sent on that connection
      await tx.commit();
      expect(pool.idleCount).toBe(pool.totalCount); // released
    } finally {
      await adapter.dispose();
      await pool.end();
    }
  });
});

describe("pg internals used by lib/db-pipeline.ts", () => {
  it("a client in pipeline mode exposes its socket as connection.stream, with cork and uncork", async () => {
    const client = new pg.Client({ connectionString: databaseUrl(), pipeline: true } as pg.ClientConfig);
    await client.connect();
    try {
      const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown; writable?: boolean } } })
        .connection?.stream;
      expect(typeof stream?.cork).toBe("function");
      expect(typeof stream?.uncork).toBe("function");
      expect(stream?.writable).toBe(true);
      const [a, b] = await Promise.all([client.query("SELECT 1 AS n"), client.query("SELECT 2 AS n")]);
      expect([a.rows[0].n, b.rows[0].n]).toStrictEqual([1, 2]);
    } finally {
      await client.end();
    }
  });
});

describe("transaction and queryRows on the real database", () => {
  // That queryRows does not go through tx.$queryRaw is asserted for one transaction in
  // tests/db-statements.test.ts (a wrapper on one transaction client's $queryRaw is seen by the
  // others: it cannot count per transaction here).
  it("runs each of 12 concurrent transactions' queryRows in that transaction (its backend and transaction id)", async () => {
    const ids = Prisma.sql`SELECT pg_backend_pid() AS pid, txid_current()::text AS txid`;
    type Ids = { pid: number; txid: string };
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        transaction(async (tx: Tx) => {
          const [own] = await tx.$queryRaw<Ids[]>(ids);
          await new Promise((r) => setTimeout(r, 5)); // let the other transactions interleave
          const [mine] = await queryRows<Ids>(ids, tx);
          return { own, mine };
        }),
      ),
    );
    for (const r of results) expect(r.mine).toStrictEqual(r.own);
    expect(new Set(results.map((r) => r.own.txid)).size).toBe(12);
  });
});
