/**
 * `npm run restore -- [--at "2026-11-28 10:15"] [--from DIR]`: point-in-time restore of the
 * embedded database (lib/runtime/restore.ts) from the backups in DIR (default CHECKIN_BACKUP_DIR,
 * else `.data/backups`). `--at` is the machine's local time unless it ends with Z or an offset;
 * without it everything archived is replayed. Refuses while the service runs.
 */
import { backupDir, databaseUrl, dataDir } from "@/lib/env";
import { exitWithUsage, parseCommandLine } from "@/lib/runtime/cli";
import { restoreDatabase } from "@/lib/runtime/restore";

const usage = 'Usage: npm run restore -- [--at "YYYY-MM-DD HH:MM[:SS][Z|+HH:MM]"] [--from BACKUP_DIR]';
const { values } = parseCommandLine(
  usage,
  { options: { at: { type: "string" }, from: { type: "string" }, help: { type: "boolean", short: "h" } } },
  2,
);
if (databaseUrl()) {
  console.error(
    "DATABASE_URL is set: npm run restore restores the embedded database only; restore an external PostgreSQL with its own tooling.",
  );
  process.exit(1);
}
let at: Date | undefined;
if (values.at !== undefined) {
  at = new Date(values.at.trim().replace(" ", "T"));
  if (Number.isNaN(at.getTime())) {
    exitWithUsage(usage, `--at "${values.at}" is not a date and time, e.g. --at "2026-11-28 10:15"`, 2);
  }
}
const started = performance.now();
try {
  const r = await restoreDatabase({
    dataDir: dataDir(),
    backupDir: values.from ?? backupDir(),
    at,
    log: (l) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${l}`),
  });
  console.log(
    `Restored from ${r.backup.name}${at ? ` to ${at.toISOString()}` : ""} in ${r.totalSeconds.toFixed(1)} s ` +
      `(copy ${r.copySeconds.toFixed(1)} s, replay ${r.replaySeconds.toFixed(1)} s). Start the service with npm start.`,
  );
  process.exit(0);
} catch (err) {
  console.error(`Restore failed: ${(err as Error).message}`);
  process.exit(1);
}
