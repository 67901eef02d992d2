/**
 * A test file's own folder for an embedded PostgreSQL it starts itself (the backup and upgrade
 * drills): created now under the OS temp dir, removed after the file's tests.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll } from "vitest";
import type { EmbeddedDatabase } from "@/lib/runtime/embedded-postgres";
import { makeTempDir } from "@/scripts/throwaway";

/**
 * A new folder `<prefix>XXXXXX` (`dir`) with `backups` the path of a backup folder inside it;
 * after the file's tests the database `running()` returns (if any) is stopped and the folder removed.
 */
export function tempDatabaseFolder(prefix: string, running: () => EmbeddedDatabase | null): { dir: string; backups: string } {
  const dir = makeTempDir(prefix);
  afterAll(async () => {
    await running()?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, backups: path.join(dir, "backups") };
}
