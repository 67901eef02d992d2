/** `npm run migrate`: applies pending migrations to DATABASE_URL or the embedded database. */
import { connectOrStart } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";

const database = await connectOrStart("migrate", () => {});
try {
  const r = await applyMigrations(database.url, (l) => console.log(l));
  console.log(r.applied.length ? `Applied ${r.applied.length} migration(s).` : "Database is up to date.");
} finally {
  await database.stop();
}
