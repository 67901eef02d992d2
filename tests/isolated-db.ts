/**
 * A database of its own for test files that run a job worker: the worker picks up every queued
 * job of its tasks, so sharing the run's database would let it deliver other test files'
 * messages. Creates a fresh database on the test PostgreSQL (tests/global-setup.ts), applies the
 * migrations and points DATABASE_URL (and so lib/db.ts) at it. Call it in `beforeAll` before the
 * first database access of the file.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { applyMigrations } from "@/lib/runtime/migrate";
import { queryOnce } from "@/lib/runtime/pg-once";
import { createTestTeam, type TestTeam } from "@/tests/fixtures";
import { installQueryCounter, type QueryCounter } from "@/tests/query-count";

/** @returns the new database's URL. */
export async function useIsolatedDatabase(prefix = "iso"): Promise<string> {
  const base = inject("databaseUrl");
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  await queryOnce(base, `CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  process.env.DATABASE_URL = url.toString();
  return url.toString();
}

/** Runs one SQL statement (or several, `;`-separated, without parameters) on the database at `url`. */
export async function runSql(url: string, text: string): Promise<void> {
  await queryOnce(url, text);
}

/**
 * For the query-plan tests: a database of their own (`useIsolatedDatabase(prefix)`) whose statements
 * the shared client counts (`queries`), a team of `members` members (`T`), and `other`, a plain pg
 * connection to it (ANALYZE, statistics, EXPLAIN); end `other` in `afterAll`. Call it in `beforeAll`.
 */
export async function usePlanTestDatabase(
  prefix: string,
  members: number,
): Promise<{ T: TestTeam; other: pg.Client; queries: QueryCounter }> {
  const url = await useIsolatedDatabase(prefix);
  const queries = installQueryCounter();
  const T = await createTestTeam({ members });
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  return { T, other, queries };
}
