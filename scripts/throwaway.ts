/**
 * Throwaway folders and databases for the scripts that run on fresh data (scripts/e2e.ts,
 * scripts/multi-instance.ts and the bench:* scripts). The caller removes what it gets.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";

/**
 * Creates a new empty folder `<prefix>XXXXXX` under the OS temp dir and returns its path. Mode 0755
 * (mkdtemp makes 0700): the postgres user must reach a data folder inside it when we run as root.
 */
export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * Starts an embedded PostgreSQL (not persistent) in a new temp folder `checkin-<purpose>-XXXXXX`,
 * saying where on stdout. `purpose` also names the lock holder. Returns the running database and
 * its folder; the caller stops the one and removes the other.
 */
export async function startThrowawayPostgres(purpose: string): Promise<{ dir: string; database: EmbeddedDatabase }> {
  const dir = makeTempDir(`checkin-${purpose}-`);
  console.log(`Starting a throwaway embedded PostgreSQL in ${dir}`);
  const database = await startEmbeddedPostgres({ dir, purpose, persistent: false });
  return { dir, database };
}
