/**
 * The one Prisma client of the process, built with the `pg` driver adapter (Rust-free client).
 * Reads `DATABASE_URL` on first use (npm start sets it after starting the embedded PostgreSQL).
 * Statements are named (prepared once per connection) unless `preparedStatements()` says the URL
 * goes through a transaction-mode pooler.
 * Kept on globalThis so Next.js dev reloads and test files share one pool.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { closeApiKeyCache } from "@/lib/auth/api-key-cache";
import { databasePoolSize, databaseUrl, preparedStatements } from "@/lib/env";
import { type Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { SerialClient } from "@/lib/pg-serial-client";

export type Db = PrismaClient;
/** A client or an interactive-transaction client: domain functions accept either. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const globalForDb = globalThis as unknown as { __checkinPrisma?: PrismaClient };

/** At most this many distinct SQL texts get a statement name; later ones run unnamed (parsed and planned each time). */
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();

/**
 * The statement name of one SQL text (`s1`, `s2`, … in order of first use in this process), or ""
 * (pg's unnamed statement) once `MAX_NAMED_STATEMENTS` texts are named. pg prepares a named statement once per
 * connection and then only binds and executes it, and PostgreSQL may reuse its plan: the list
 * statements cost about half the database time (measured: 1.97 → 1.06 ms per /v2/reports page).
 * The map is process-wide, so one name never stands for two texts.
 */
export function statementName(query: { sql: string }): string {
  let name = statementNames.get(query.sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `s${statementNames.size + 1}`;
    statementNames.set(query.sql, name);
  }
  return name ?? "";
}

/**
 * A new Prisma client on `url` configured as the shared one: the `pg` adapter with a pool of
 * `databasePoolSize()` connections kept warm for 60 s and named statements when
 * `preparedStatements()` allows them. `log` is passed on (e.g. query events for benchmarks).
 */
export function newPrismaClient<L extends Prisma.LogLevel = never>(
  url: string,
  opts: { log?: Array<{ emit: "event"; level: L }> } = {},
): PrismaClient<L> {
  const adapter = new PrismaPg(
    {
      connectionString: url,
      max: databasePoolSize(),
      // A warm backend (catalog caches, prepared statements) answers faster than a new one.
      idleTimeoutMillis: 60_000,
      Client: SerialClient,
    },
    preparedStatements() ? { statementNameGenerator: statementName } : {},
  );
  return new PrismaClient({ adapter, ...(opts.log && { log: opts.log }) }) as unknown as PrismaClient<L>;
}

/** Returns the shared Prisma client. Throws when DATABASE_URL is unset. */
export function getDb(): PrismaClient {
  if (globalForDb.__checkinPrisma) return globalForDb.__checkinPrisma;
  const url = databaseUrl();
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it when it starts the embedded PostgreSQL)");
  globalForDb.__checkinPrisma = newPrismaClient(url);
  return globalForDb.__checkinPrisma;
}

/** Lazy proxy so modules can `import { db }` without connecting at import time. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const client = getDb() as unknown as Record<string | symbol, unknown>;
    const value = client[prop];
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(client) : value;
  },
});

/**
 * Runs `fn` in the caller's transaction when one is passed, otherwise in a new interactive
 * transaction of the shared client: how domain writes that take an optional `tx` stay atomic.
 */
export function inTransaction<T>(tx: Tx | undefined, fn: (t: Tx) => Promise<T>): Promise<T> {
  return tx ? fn(tx) : db.$transaction((t) => fn(t));
}

/**
 * Runs `fn` in a new interactive transaction of the shared client: how a route makes a domain
 * write and the read that answers it one atomic unit.
 */
export function transaction<T>(fn: (t: Tx) => Promise<T>): Promise<T> {
  return db.$transaction((t) => fn(t));
}

/** Disconnects the shared client and the API-key cache's listener (scripts and tests call this before exiting). */
export async function disconnectDb(): Promise<void> {
  await closeApiKeyCache();
  await globalForDb.__checkinPrisma?.$disconnect();
  globalForDb.__checkinPrisma = undefined;
}
