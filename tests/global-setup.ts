/**
 * Vitest global setup: one throwaway PostgreSQL per test run.
 * - Default: starts an embedded PostgreSQL (lib/runtime/embedded-postgres.ts) in a fresh temporary
 *   folder (mode 0755 so the unprivileged postgres user can reach it when we run as root), not
 *   persistent (its data folder is removed on stop), applies the migrations, and provides its URL.
 * - With TEST_DATABASE_URL set: uses that database instead, but only when its host is localhost or
 *   127.0.0.1 (tests create data freely; never point them at a shared server).
 * Provides `databaseUrl` (read with `inject("databaseUrl")`, see tests/setup.ts) and also sets
 * process.env.DATABASE_URL. Teardown stops the embedded server and removes the folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** Starts (or validates) the test database and provides its URL; returns the teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const host = new URL(external).hostname;
    if (host !== "localhost" && host !== "127.0.0.1") {
      throw new Error(`Refusing to run tests against TEST_DATABASE_URL on host "${host}": only localhost/127.0.0.1 are allowed.`);
    }
    await applyMigrations(external);
    process.env.DATABASE_URL = external;
    project.provide("databaseUrl", external);
    return async () => {};
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "checkin-tests-"));
  fs.chmodSync(dir, 0o755);
  const database = await startEmbeddedPostgres({ dir, purpose: "tests", persistent: false });
  try {
    await applyMigrations(database.url);
  } catch (err) {
    await database.stop();
    throw err;
  }
  process.env.DATABASE_URL = database.url;
  project.provide("databaseUrl", database.url);
  return async () => {
    await database.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
