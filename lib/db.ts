/**
 * The one Prisma client of the process, built with the `pg` driver adapter (Rust-free client).
 * Reads `DATABASE_URL` on first use (npm start sets it after starting the embedded PostgreSQL).
 * Kept on globalThis so Next.js dev reloads and test files share one pool.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { closeApiKeyCache } from "@/lib/auth/api-key-cache";
import { databasePoolSize, databaseUrl } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { SerialClient } from "@/lib/pg-serial-client";

export type Db = PrismaClient;
/** A client or an interactive-transaction client: domain functions accept either. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const globalForDb = globalThis as unknown as { __checkinPrisma?: PrismaClient };

/** Returns the shared Prisma client. Throws when DATABASE_URL is unset. */
export function getDb(): PrismaClient {
  if (globalForDb.__checkinPrisma) return globalForDb.__checkinPrisma;
  const url = databaseUrl();
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it when it starts the embedded PostgreSQL)");
  const adapter = new PrismaPg({ connectionString: url, max: databasePoolSize(), Client: SerialClient });
  globalForDb.__checkinPrisma = new PrismaClient({ adapter });
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
