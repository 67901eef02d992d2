/**
 * `npm run import-export -- team.tar.gz`: imports a team archive written by `npm run export`
 * (lib/runtime/team-archive-import.ts) into an empty database of the same schema version, in one
 * transaction, keeping the ids. Uses DATABASE_URL, else the embedded database of a running
 * `npm start`, else starts the embedded database for the command; pending migrations of this
 * version are applied first (a new data folder gets its schema). Refuses a non-empty database.
 */
import { parseArgs } from "node:util";
import { connectOrStart } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";
import { TeamArchiveError } from "@/lib/runtime/team-archive";
import { importTeam } from "@/lib/runtime/team-archive-import";

const usage = "Usage: npm run import-export -- FILE.tar.gz";
let file: string | undefined;
try {
  const { values, positionals } = parseArgs({ options: { help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (positionals.length !== 1) throw new Error("give exactly one archive file to import");
  [file] = positionals;
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}

let code = 0;
const database = await connectOrStart("team import", () => {});
try {
  await applyMigrations(database.url, (l) => console.log(l));
  await importTeam({ url: database.url, file: file as string, log: (l) => console.log(l) });
  console.log("Done. Start the service with npm start (it seeds no demo data: the database has a team).");
} catch (err) {
  console.error(err instanceof TeamArchiveError ? `Import refused: ${err.message}` : err);
  code = 1;
} finally {
  await database.stop().catch(() => {});
}
process.exit(code);
