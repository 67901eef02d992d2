/**
 * `npm run backup`: a base backup of the embedded database (lib/runtime/backup.ts) into
 * CHECKIN_BACKUP_DIR (default `.data/backups`), then retention (CHECKIN_BACKUP_KEEP newest, default 7).
 * Uses the running `npm start`'s database, else starts it for the command. Refuses with an external
 * DATABASE_URL: back that server up with its own tooling.
 */
import { backupDir, backupKeep, databaseUrl, dataDir } from "@/lib/env";
import { backupNow } from "@/lib/runtime/backup";
import { embeddedDatabaseIn, runningDatabaseUrl, startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";

const log = (l: string) => console.log(l);
const configured = databaseUrl();
if (configured && !embeddedDatabaseIn(dataDir(), configured)) {
  console.error(
    "DATABASE_URL points at an external PostgreSQL: back it up with that server's own tooling (pg_basebackup and WAL archiving, pg_dump, or your provider's snapshots). npm run backup covers the embedded database only.",
  );
  process.exit(1);
}
let code = 0;
const running = runningDatabaseUrl();
const database = running ? { url: running, stop: async () => {} } : await startEmbeddedPostgres({ purpose: "backup", log: () => {} });
try {
  await backupNow({ url: database.url, dataDir: dataDir(), backupDir: backupDir(), keep: backupKeep(), log });
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  code = 1;
} finally {
  await database.stop();
}
process.exit(code);
