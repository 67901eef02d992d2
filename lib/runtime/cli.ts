/**
 * Shared plumbing of the people commands (`npm run team`, `npm run user`): argument errors with
 * usage, the database (DATABASE_URL, else the embedded database of a running `npm start`, else
 * the embedded database started for the command, with pending migrations applied), the public
 * origin links point at, and readable domain errors with exit code 1. The same pieces serve the
 * other npm commands: parsing flags with the usage, running a body against the database.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
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
export function runCommand(usage: string, fn: () => Promise<void>): Promise<never> {
  return runWithDatabase(
    "people command",
    async (url) => {
      await applyMigrations(url, () => {});
      await fn();
    },
    (err) => {
      if (err instanceof UsageError) console.error(`${err.message}\n${usage}`);
      else if (err instanceof DomainError) console.error(`Error: ${err.message}`);
      else console.error(err);
    },
  );
}

/**
 * Runs `body` against the command's database (DATABASE_URL, else the embedded database of a
 * running `npm start`, else the embedded database started for the command, named `name` in its
 * log; `db` points at it) and exits with the exit code `body` returns (a number; else 0), or with
 * 1 after `report` printed what `body` threw. Disconnects and stops the database either way.
 */
export async function runWithDatabase(
  name: string,
  body: (url: string) => Promise<unknown>,
  report: (err: unknown) => void,
): Promise<never> {
  let code = 0;
  let database: { url: string; stop: () => Promise<void> } | null = null;
  try {
    database = await connectOrStart(name, () => {});
    setDatabaseUrl(database.url);
    const result = await body(database.url);
    code = typeof result === "number" ? result : 0;
  } catch (err) {
    code = 1;
    report(err);
  } finally {
    await disconnectDb().catch(() => {});
    await database?.stop().catch(() => {});
  }
  process.exit(code);
}

/** Prints `message` and the usage to stderr and exits with `code`. */
export function exitWithUsage(usage: string, message: string, code: number): never {
  console.error(`${message}\n${usage}`);
  process.exit(code);
}

/**
 * `parseArgs` (strict, its default) of the command line by `config`: an unknown or malformed flag prints its
 * error with `usage` and exits with `badExit`; `help` set (give the options `help: { type:
 * "boolean", short: "h" }`) prints the usage and exits 0.
 */
export function parseCommandLine<T extends ParseArgsConfig>(usage: string, config: T, badExit: number): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (err) {
    return exitWithUsage(usage, (err as Error).message, badExit);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}
