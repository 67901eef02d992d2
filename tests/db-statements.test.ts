/**
 * Named statements of the shared Prisma pool (lib/db.ts `statementName`, lib/env.ts
 * `preparedStatements`): one name per SQL text, prepared once per connection on the real test
 * database, and off when DATABASE_URL goes through a transaction-mode pooler; `queryRows` returns
 * the same values straight from the pool as through Prisma's `$queryRaw` in a transaction, also
 * when called from a second copy of lib/db (Next.js bundles one per route chunk); inside
 * `transaction` it runs on the transaction's own connection, commits and rolls back with it, and
 * refuses to run once the transaction has ended (committed or timed out).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { db, namedStatement, queryRows, statementName, type Tx, transaction } from "@/lib/db";
import { preparedStatements } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";

/** Counts the calls of `client.$queryRaw` (still answering them) until `restore()`. */
function countQueryRaw(client: { $queryRaw: Tx["$queryRaw"] }): { calls: () => number; restore: () => void } {
  const raw = client.$queryRaw;
  let calls = 0;
  client.$queryRaw = ((...args: Parameters<typeof raw>) => {
    calls += 1;
    return raw.apply(client, args);
  }) as typeof raw;
  return {
    calls: () => calls,
    restore: () => {
      client.$queryRaw = raw;
    },
  };
}

const saved = { direct: process.env.DIRECT_DATABASE_URL, setting: process.env.DATABASE_PREPARED_STATEMENTS };
afterEach(() => {
  for (const [k, v] of [
    ["DIRECT_DATABASE_URL", saved.direct],
    ["DATABASE_PREPARED_STATEMENTS", saved.setting],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("statementName", () => {
  it("gives one name per SQL text and different names to different texts", () => {
    const a = statementName({ sql: "SELECT 1 -- statement-name test a" });
    const b = statementName({ sql: "SELECT 1 -- statement-name test b" });
    expect(a).toMatch(/^s\d+$/);
    expect(b).toMatch(/^s\d+$/);
    expect(a).not.toBe(b);
    expect(statementName({ sql: "SELECT 1 -- statement-name test a" })).toBe(a);
  });

  it("names a queryRows statement by its fragments: one name and one text object per shape, the name its text has", () => {
    const shape = (kind: string, id: number) =>
      Prisma.sql`SELECT ${id}::int AS id ${Prisma.raw(kind === "poll" ? ", 'poll' AS kind" : "")} -- named-statement test`;
    const first = namedStatement(shape("standup", 1));
    const again = namedStatement(shape("standup", 2)); // other values, same text
    const other = namedStatement(shape("poll", 1)); // a nested fragment changes the text
    expect(first.name).toMatch(/^s\d+$/);
    expect(again.name).toBe(first.name);
    expect(again.text).toBe(first.text);
    expect(first.text).toBe(shape("standup", 3).text);
    expect(other.name).not.toBe(first.name);
    expect(other.text).toBe(shape("poll", 3).text);
    expect(statementName({ sql: first.text })).toBe(first.name);
    expect(statementName({ sql: other.text })).toBe(other.name);
  });

  it("prepares a statement of the pool once on its connection (pg_prepared_statements)", async () => {
    const marker = `prepared-${Date.now()}`;
    const names = await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT ${marker}::text AS marker`;
      await tx.$queryRaw`SELECT ${marker}::text AS marker`;
      return tx.$queryRaw<Array<{ name: string; statement: string }>>`
        SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE '%AS marker%' AND statement NOT LIKE '%pg_prepared_statements%'`;
    });
    expect(names).toHaveLength(1);
    expect(names[0].name).toMatch(/^s\d+$/);
  });
});

describe("preparedStatements", () => {
  it("is on by default and when DIRECT_DATABASE_URL equals DATABASE_URL", () => {
    delete process.env.DATABASE_PREPARED_STATEMENTS;
    delete process.env.DIRECT_DATABASE_URL;
    expect(preparedStatements()).toBe(true);
    process.env.DIRECT_DATABASE_URL = process.env.DATABASE_URL;
    expect(preparedStatements()).toBe(true);
  });

  it("is off when DATABASE_URL is a pooler (DIRECT_DATABASE_URL elsewhere), unless set on", () => {
    delete process.env.DATABASE_PREPARED_STATEMENTS;
    process.env.DIRECT_DATABASE_URL = "postgresql://checkin@127.0.0.1:1/direct";
    expect(preparedStatements()).toBe(false);
    process.env.DATABASE_PREPARED_STATEMENTS = "on";
    expect(preparedStatements()).toBe(true);
    process.env.DATABASE_PREPARED_STATEMENTS = "off";
    delete process.env.DIRECT_DATABASE_URL;
    expect(preparedStatements()).toBe(false);
  });
});

describe("queryRows", () => {
  const at = new Date("2026-03-29T01:30:00.123Z");
  /** Every column type our reads return, nulls, and bound Dates, arrays and text. */
  const everyType = () => Prisma.sql`
    SELECT 1::int2 AS i2, 2::int4 AS i4, 9007199254740993::int8 AS i8, (SELECT count(*) FROM generate_series(1, 3)) AS n,
      1.50::numeric AS num, 0.5::float8 AS f8, true AS b, 'x'::text AS t, 'v'::varchar AS vc,
      DATE '2026-03-29' AS d, TIMESTAMP '2026-03-29 01:30:00.123' AS ts, TIMESTAMPTZ '2026-03-29 03:30:00.123+02' AS tstz,
      '{"a":[1,"b"],"n":null}'::json AS j, '{"a":1}'::jsonb AS jb, ARRAY['a', NULL, 'c'] AS ta, ARRAY[1, 2] AS ia,
      ARRAY[1::int8, NULL] AS i8a, ARRAY[TIMESTAMP '2026-01-01 00:00:00'] AS tsa, ARRAY[DATE '2026-01-01'] AS da,
      ARRAY[1.5::numeric] AS numa, NULL::timestamp AS nts, NULL::int8 AS ni8, NULL::json AS nj,
      'active'::"CheckinState" AS en, ARRAY['active', 'paused']::"CheckinState"[] AS ena,
      ${at}::timestamp AS bound_ts, ${at}::timestamptz AS bound_tstz, ${at}::date AS bound_d,
      ${[3, 4]}::int[] AS bound_ia, ${"it's"}::text AS bound_t, ${null}::int AS bound_null`;

  it("returns the values $queryRaw returns, for every column type (straight from the pool vs in a transaction)", async () => {
    const direct = await queryRows<Record<string, unknown>>(everyType());
    const viaPrisma = await db.$transaction((tx) => queryRows<Record<string, unknown>>(everyType(), tx));
    expect(direct).toStrictEqual(viaPrisma);
    const [row] = direct;
    expect(row.i8).toBe(9007199254740993n);
    expect(row.n).toBe(3n);
    expect(row.num).toStrictEqual(new Prisma.Decimal("1.50"));
    expect(row.ts).toStrictEqual(at);
    expect(row.tstz).toStrictEqual(at);
    expect(row.bound_ts).toStrictEqual(at);
    expect(row.bound_tstz).toStrictEqual(at);
    expect(row.d).toStrictEqual(new Date("2026-03-29T00:00:00Z"));
    expect(row.bound_d).toStrictEqual(new Date("2026-03-29T00:00:00Z"));
    expect(row.i8a).toStrictEqual([1n, null]);
    expect(row.tsa).toStrictEqual([new Date("2026-01-01T00:00:00Z")]);
    expect(row.j).toStrictEqual({ a: [1, "b"], n: null });
    expect(row.bound_ia).toStrictEqual([3, 4]);
    expect(row.bound_t).toBe("it's");
    expect(row.en).toBe("active");
  });

  it("passes database errors through (a statement that fails fails the call)", async () => {
    await expect(queryRows(Prisma.sql`SELECT 1 / ${0}::int AS x`)).rejects.toThrow(/division by zero/);
  });

  it("goes straight to the pool from a second copy of lib/db too, and both copies name statements alike", async () => {
    const first = await import("@/lib/db");
    const client = first.getDb();
    vi.resetModules(); // a fresh module registry: what a second route chunk of the Next.js build has
    const second = await import("@/lib/db");
    expect(second.queryRows).not.toBe(first.queryRows);
    expect(second.getDb()).toBe(client);
    const viaPrisma = countQueryRaw(client);
    try {
      const query = Prisma.sql`SELECT ${"second copy"}::text AS t`;
      expect(await second.queryRows<{ t: string }>(query, second.db)).toStrictEqual([{ t: "second copy" }]);
      expect(await second.queryRows<{ t: string }>(query, first.db)).toStrictEqual([{ t: "second copy" }]);
      expect(viaPrisma.calls()).toBe(0);
      // Inside a transaction it still runs on the transaction's connection.
      await first.db.$transaction(async (tx) => {
        const pid = Prisma.sql`SELECT pg_backend_pid() AS pid`;
        const [own] = await tx.$queryRaw<Array<{ pid: number }>>(pid);
        expect(await second.queryRows<{ pid: number }>(pid, tx)).toStrictEqual([own]);
      });
    } finally {
      viaPrisma.restore();
    }
    const text = `SELECT 1 -- shared name ${Date.now()}`;
    expect(second.statementName({ sql: text })).toBe(first.statementName({ sql: text }));
  });
});

describe("transaction", () => {
  const pid = Prisma.sql`SELECT pg_backend_pid() AS pid, txid_current()::text AS txid`;
  /** A scratch row in `rate_limits` (a plain table without foreign keys); its key is unique per test. */
  const insertKey = (key: string) => Prisma.sql`INSERT INTO rate_limits (key, points) VALUES (${key}, 1) RETURNING key`;
  const stored = async (key: string) => (await db.rateLimit.count({ where: { key } })) === 1;

  it("runs queryRows on the transaction's connection, not through tx.$queryRaw, and commits with it", async () => {
    const key = `tx-commit-${Date.now()}`;
    await transaction(async (tx) => {
      const [own] = await tx.$queryRaw<Array<{ pid: number; txid: string }>>(pid);
      const viaPrisma = countQueryRaw(tx);
      expect(await queryRows<{ pid: number; txid: string }>(pid, tx)).toStrictEqual([own]);
      expect(await queryRows(insertKey(key), tx)).toStrictEqual([{ key }]);
      expect(viaPrisma.calls()).toBe(0);
      viaPrisma.restore();
      // Not visible outside before the commit.
      expect(await stored(key)).toBe(false);
    });
    expect(await stored(key)).toBe(true);
    await db.rateLimit.delete({ where: { key } });
  });

  it("rolls back what queryRows wrote when the callback throws", async () => {
    const key = `tx-rollback-${Date.now()}`;
    await expect(
      transaction(async (tx) => {
        await queryRows(insertKey(key), tx);
        throw new Error("callback failed");
      }),
    ).rejects.toThrow("callback failed");
    expect(await stored(key)).toBe(false);
  });

  it("rolls back when a statement fails, and the next transaction gets a clean connection", async () => {
    const key = `tx-failed-${Date.now()}`;
    await expect(
      transaction(async (tx) => {
        await queryRows(insertKey(key), tx);
        await queryRows(Prisma.sql`SELECT 1 / ${0}::int AS x`, tx);
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await stored(key)).toBe(false);
    const rows = await Promise.all(
      Array.from({ length: 12 }, () => transaction((tx) => queryRows<{ ok: number }>(Prisma.sql`SELECT 1 AS ok`, tx))),
    );
    expect(rows.flat()).toStrictEqual(Array.from({ length: 12 }, () => ({ ok: 1 })));
  });

  it("refuses a query after the transaction ended, so it never runs on a connection handed to someone else", async () => {
    let kept: Parameters<Parameters<typeof transaction>[0]>[0] | undefined;
    await transaction(async (tx) => {
      kept = tx;
    });
    await expect(queryRows(Prisma.sql`SELECT 1 AS x`, kept)).rejects.toThrow(/Transaction already closed/);

    // Timed out: Prisma rolls back and releases the connection while the callback still runs.
    const key = `tx-timeout-${Date.now()}`;
    let late: unknown;
    await expect(
      transaction(
        async (tx) => {
          await new Promise((r) => setTimeout(r, 400));
          late = await queryRows(insertKey(key), tx).catch((err: Error) => err);
        },
        { timeout: 100 },
      ),
    ).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 500));
    expect(String(late)).toMatch(/Transaction already closed/);
    expect(await stored(key)).toBe(false);
  });
});
