/**
 * `npm run api-key -- --email someone@example.com [--name "CI"] [--team <id>]`: creates an API key
 * for the user with that email (case-insensitive) and prints it once. When the email exists in
 * several teams, --team <numeric team id> chooses one. Exits 1 with a clear message otherwise.
 * The example URL is PUBLIC_URL, else the running service's address (lib/runtime/cli.ts).
 */
import { createApiKey } from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db";
import { usersByEmail } from "@/lib/domain/exact-lookup";
import { cliBaseUrl, exitWithUsage, parseCommandLine, runWithDatabase } from "@/lib/runtime/cli";

const USAGE = 'Usage: npm run api-key -- --email someone@example.com [--name "CI"] [--team <team id>]';

const { values } = parseCommandLine(
  USAGE,
  {
    options: {
      email: { type: "string" },
      name: { type: "string" },
      team: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  },
  1,
);
const email = values.email?.trim();
if (!email) exitWithUsage(USAGE, "Missing --email.", 1);
const teamId = values.team === undefined ? undefined : Number(values.team);
if (teamId !== undefined && !(Number.isInteger(teamId) && teamId > 0)) {
  console.error(`--team must be a numeric team id, got ${JSON.stringify(values.team)}.`);
  process.exit(1);
}

await runWithDatabase(
  "api-key",
  async () => {
    const db = getDb();
    const found = await usersByEmail([email], { teamId, activeOnly: true }, db);
    const users = await db.user.findMany({
      where: { id: { in: found.map((u) => u.id) }, deactivated_at: null },
      select: { id: true, chat_id: true, email: true, realname: true, team: { select: { id: true, name: true } } },
      orderBy: { team_id: "asc" },
    });
    if (users.length === 0) {
      console.error(`No active user with email ${email}${teamId ? ` in team ${teamId}` : ""}.`);
      return 1;
    }
    if (users.length > 1) {
      console.error(`${email} belongs to ${users.length} teams; choose one with --team <id>:`);
      for (const u of users) console.error(`  --team ${u.team.id}   ${u.team.name} (${u.realname}, ${u.chat_id})`);
      return 1;
    }
    const user = users[0] as (typeof users)[number];
    const name = values.name?.trim() || `CLI key ${new Date().toISOString().slice(0, 10)}`;
    const { key, prefix } = await createApiKey(db, { teamId: user.team.id, userId: user.id, name });
    console.log(`API key "${name}" (${prefix}…) for ${user.realname} <${user.email}>, ${user.chat_id} in ${user.team.name}:`);
    console.log("");
    console.log(`  ${key}`);
    console.log("");
    console.log("It is shown only once; store it now.");
    console.log(`Try: curl -H "Authorization: ${key}" ${cliBaseUrl()}/v1/me`);
  },
  (err) => console.error("Could not create the API key:", err),
);
