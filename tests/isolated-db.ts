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

/** @returns the new database's URL. */
export async function useIsolatedDatabase(prefix = "iso"): Promise<string> {
  const base = inject("databaseUrl");
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  process.env.DATABASE_URL = url.toString();
  return url.toString();
}

/** Runs one SQL statement (or several, `;`-separated, without parameters) on the database at `url`. */
export async function runSql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
