/**
 * `npm run import-export -- team.tar.gz`: imports a team archive written by `npm run export`
 * (lib/runtime/team-archive-import.ts) into an empty database of the same schema version, in one
 * transaction, keeping the ids. Uses DATABASE_URL, else the embedded database of a running
 * `npm start`, else starts the embedded database for the command; pending migrations of this
 * version are applied first (a new data folder gets its schema). Refuses a non-empty database.
 */
import { exitWithUsage, parseCommandLine, runWithDatabase } from "@/lib/runtime/cli";
import { applyMigrations } from "@/lib/runtime/migrate";
import { TeamArchiveError } from "@/lib/runtime/team-archive";
import { importTeam } from "@/lib/runtime/team-archive-import";

const usage = "Usage: npm run import-export -- FILE.tar.gz";
const { positionals } = parseCommandLine(usage, { options: { help: { type: "boolean", short: "h" } }, allowPositionals: true }, 2);
if (positionals.length !== 1) exitWithUsage(usage, "give exactly one archive file to import", 2);
const [file] = positionals;

await runWithDatabase(
  "team import",
  async (url) => {
    await applyMigrations(url, (l) => console.log(l));
    await importTeam({ url, file, log: (l) => console.log(l) });
    console.log("Done. Start the service with npm start (it seeds no demo data: the database has a team).");
  },
  (err) => console.error(err instanceof TeamArchiveError ? `Import refused: ${err.message}` : err),
);
