/**
 * The frame of the bench:* scripts that measure on generated data (bench:exports, bench:import): a
 * throwaway database filled by lib/bench/generate.ts, the body, the clean-up and the exit code.
 */
import fs from "node:fs";
import pg from "pg";
import { generateBenchData } from "@/lib/bench/generate";
import { disconnectDb } from "@/lib/db";
import { setDatabaseUrl } from "@/lib/env";
import { applyMigrations } from "@/lib/runtime/migrate";
import { startThrowawayPostgres } from "@/scripts/throwaway";

/**
 * Runs `body` on a throwaway embedded PostgreSQL (`startThrowawayPostgres(purpose)`), migrated and
 * filled by the bench generator (lib/bench/generate.ts, about `reports` reports in team A; it
 * prints what it generated), with `db` pointing at it and `raw` a plain pg client on it. Exits 0,
 * or 1 after printing what `body` (or the setup) threw; the database is stopped and its folder
 * removed either way.
 */
export async function runOnBenchData(purpose: string, reports: number, body: (raw: pg.Client) => Promise<void>): Promise<never> {
  const { dir, database } = await startThrowawayPostgres(purpose);
  const raw = new pg.Client({ connectionString: database.url });
  let exitCode = 0;
  try {
    setDatabaseUrl(database.url);
    await applyMigrations(database.url);
    await raw.connect();
    console.log(`Generating data (BENCH_REPORTS=${reports})…`);
    const g = await generateBenchData(raw, { reports, log: console.log });
    const counts = Object.entries(g.counts).map(([k, v]) => `${k} ${v.toLocaleString("en-US")}`);
    console.log(`\nData: ${g.days} days of history; ${counts.join(", ")}`);
    await body(raw);
  } catch (err) {
    console.error(err);
    exitCode = 1;
  } finally {
    await disconnectDb().catch(() => {});
    await raw.end().catch(() => {});
    await database.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(exitCode);
}
