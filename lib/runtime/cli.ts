/**
 * Shared plumbing of the people commands (`npm run team`, `npm run user`): argument errors with
 * usage, the database (DATABASE_URL, else the embedded database of a running `npm start`, else
 * the embedded database started for the command, with pending migrations applied), the public
 * origin links point at, and readable domain errors with exit code 1.
 */
import { disconnectDb } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import { publicUrl, setDatabaseUrl } from "@/lib/env";
import { connectOrStart } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";
import { webUrlHint } from "@/lib/runtime/web-address";

/** Thrown for a bad command line; printed with the usage. */
export class UsageError extends Error {}

/**
 * Origin of printed links: PUBLIC_URL, else the address of the running `npm start` (its recorded
 * web address, or PORT; lib/runtime/web-address.ts), else http://localhost:3000.
 */
export function cliBaseUrl(): string {
  return publicUrl() ?? webUrlHint();
}

/**
 * Runs `fn` with a migrated database and exits: 0 on success, 1 with a one-line message on a
 * usage or domain error (the usage is printed too), 1 with the stack on anything else.
 */
export async function runCommand(usage: string, fn: () => Promise<void>): Promise<never> {
  let code = 0;
  let database: { url: string; stop: () => Promise<void> } | null = null;
  try {
    database = await connectOrStart("people command", () => {});
    setDatabaseUrl(database.url);
    await applyMigrations(database.url, () => {});
    await fn();
  } catch (err) {
    code = 1;
    if (err instanceof UsageError) console.error(`${err.message}\n${usage}`);
    else if (err instanceof DomainError) console.error(`Error: ${err.message}`);
    else console.error(err);
  } finally {
    await disconnectDb().catch(() => {});
    await database?.stop().catch(() => {});
  }
  process.exit(code);
}
