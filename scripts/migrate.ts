/**
 * `npm run migrate`: applies pending migrations to DIRECT_DATABASE_URL, else DATABASE_URL, else
 * the embedded database (migrations take an advisory lock: not through PgBouncer). An upgrade of
 * the embedded database takes a base backup first (lib/runtime/backup.ts `backupBeforeMigrating`).
 */
import { backupDir, backupKeep, databaseUrl, dataDir, directDatabaseUrl, setDatabaseUrl } from "@/lib/env";
import { backupBeforeMigrating } from "@/lib/runtime/backup";
import { connectOrStart, embeddedDatabaseIn } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";

const direct = directDatabaseUrl();
if (direct) setDatabaseUrl(direct);
const configured = databaseUrl();
const embedded = !configured || embeddedDatabaseIn(dataDir(), configured) !== null;
const database = await connectOrStart("migrate", () => {});
const log = (l: string) => console.log(l);
try {
  const beforeApply = embedded
    ? backupBeforeMigrating({ url: database.url, dataDir: dataDir(), backupDir: backupDir(), keep: backupKeep(), log })
    : undefined;
  const r = await applyMigrations(database.url, log, { beforeApply });
  console.log(r.applied.length ? `Applied ${r.applied.length} migration(s).` : "Database is up to date.");
} finally {
  await database.stop();
}
