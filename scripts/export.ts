/**
 * `npm run export -- team.tar.gz [--team ID]`: a portable logical export of one team (every
 * tenant table's rows of the team in one consistent snapshot, lib/runtime/team-archive.ts), for
 * moving it to another server with `npm run import-export`. Reads DATABASE_URL, else the embedded
 * database of a running `npm start`, else starts the embedded database for the command.
 * `--team` is the team's numeric id or chat id; without it the database must hold one team.
 */
import { parseArgs } from "node:util";
import { connectOrStart } from "@/lib/runtime/embedded-postgres";
import { exportTeam, TeamArchiveError } from "@/lib/runtime/team-archive";

const usage = "Usage: npm run export -- FILE.tar.gz [--team ID]";
let file: string | undefined;
let team: string | undefined;
try {
  const { values, positionals } = parseArgs({
    options: { team: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (positionals.length !== 1) throw new Error("give exactly one archive file to write");
  [file] = positionals;
  team = values.team;
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}

let code = 0;
const database = await connectOrStart("team export", () => {});
try {
  await exportTeam({ url: database.url, file: file as string, team, log: (l) => console.log(l) });
} catch (err) {
  console.error(err instanceof TeamArchiveError ? `Export refused: ${err.message}` : err);
  code = 1;
} finally {
  await database.stop().catch(() => {});
}
process.exit(code);
