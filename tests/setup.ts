/**
 * Per-test-file setup (runs in every worker before the test file): points DATABASE_URL at the
 * database of tests/global-setup.ts and fixes AUTH_SECRET so signatures are deterministic; after
 * the file, disconnects the shared Prisma client if the file used it.
 */
import { afterAll, inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.AUTH_SECRET = "test-auth-secret-0123456789abcdef";
// In-process API tests make hundreds of calls per key within a minute: the per-key rate limit is
// off for them; tests/api/rate-limit.test.ts turns it on (lower) and e2e checks the default.
process.env.RATE_LIMIT_API_PER_MINUTE ??= "0";

// Registered before the test file's own hooks, so it runs after them (Vitest runs after-hooks in
// reverse order): workers and fakes the file stops in its afterAll are gone by then.
afterAll(async () => {
  if (!(globalThis as { __checkinPrisma?: unknown }).__checkinPrisma) return;
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
});
