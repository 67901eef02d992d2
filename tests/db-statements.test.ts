/**
 * Named statements of the shared Prisma pool (lib/db.ts `statementName`, lib/env.ts
 * `preparedStatements`): one name per SQL text, prepared once per connection on the real test
 * database, and off when DATABASE_URL goes through a transaction-mode pooler.
 */
import { afterEach, describe, expect, it } from "vitest";
import { db, statementName } from "@/lib/db";
import { preparedStatements } from "@/lib/env";

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
