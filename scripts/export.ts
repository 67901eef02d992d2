/**
 * `npm run export -- team.tar.gz [--team ID]`: a portable logical export of one team (every
 * tenant table's rows of the team in one consistent snapshot, lib/runtime/team-archive.ts), for
 * moving it to another server with `npm run import-export`. Reads DATABASE_URL, else the embedded
 * database of a running `npm start`, else starts the embedded database for the command.
 * `--team` is the team's numeric id or chat id; without it the database must hold one team.
 */
import { exitWithUsage, parseCommandLine, runWithDatabase } from "@/lib/runtime/cli";
import { exportTeam, TeamArchiveError } from "@/lib/runtime/team-archive";

const usage = "Usage: npm run export -- FILE.tar.gz [--team ID]";
const { values, positionals } = parseCommandLine(
  usage,
  { options: { team: { type: "string" }, help: { type: "boolean", short: "h" } }, allowPositionals: true },
  2,
);
if (positionals.length !== 1) exitWithUsage(usage, "give exactly one archive file to write", 2);
const [file] = positionals;

await runWithDatabase(
  "team export",
  async (url) => {
    await exportTeam({ url, file, team: values.team, log: (l) => console.log(l) });
  },
  (err) => console.error(err instanceof TeamArchiveError ? `Export refused: ${err.message}` : err),
);
