/**
 * `npm run migrate`: applies pending migrations to DIRECT_DATABASE_URL, else DATABASE_URL, else
 * the embedded database (migrations take an advisory lock: not through PgBouncer).
 */
import { connectOrStart } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";

if (process.env.DIRECT_DATABASE_URL) process.env.DATABASE_URL = process.env.DIRECT_DATABASE_URL;
const database = await connectOrStart("migrate", () => {});
try {
  const r = await applyMigrations(database.url, (l) => console.log(l));
  console.log(r.applied.length ? `Applied ${r.applied.length} migration(s).` : "Database is up to date.");
} finally {
  await database.stop();
}
