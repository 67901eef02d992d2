/**
 * `npm run migrate`: applies pending migrations to DIRECT_DATABASE_URL, else DATABASE_URL, else
 * the embedded database (migrations take an advisory lock: not through PgBouncer).
 */
import { directDatabaseUrl, setDatabaseUrl } from "@/lib/env";
import { connectOrStart } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";

const direct = directDatabaseUrl();
if (direct) setDatabaseUrl(direct);
const database = await connectOrStart("migrate", () => {});
try {
  const r = await applyMigrations(database.url, (l) => console.log(l));
  console.log(r.applied.length ? `Applied ${r.applied.length} migration(s).` : "Database is up to date.");
} finally {
  await database.stop();
}
