/**
 * `npm run team -- <command>`: teams from the command line (issue 11, first run for automation).
 *   create --name "Acme" --admin-email ada@acme.test --admin-name "Ada" [--timezone Europe/Berlin]
 *       creates the team, its first admin and a #general channel; prints a one-time sign-in link
 *       (24 hours, single use) with which the admin signs in and then sets a password. Refused when a
 *       team has that name or the admin e-mail already belongs to someone (both ignoring case),
 *       unless --force.
 *   list    prints every team with its id and number of active people.
 * Database: see lib/runtime/cli.ts. Exit code 0, or 1 with a clear message.
 */
import { parseArgs } from "node:util";
import { db } from "@/lib/db";
import { createTeamWithAdmin } from "@/lib/domain/first-run";
import { cliBaseUrl, runCommand, UsageError } from "@/lib/runtime/cli";

const USAGE = [
  "Usage:",
  '  npm run team -- create --name "Acme" --admin-email ada@acme.test --admin-name "Ada Lovelace" [--timezone Europe/Berlin] [--force]',
  "  npm run team -- list",
].join("\n");

await runCommand(USAGE, async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "create") {
    const { values } = parseArgs({
      args: rest,
      options: {
        name: { type: "string" },
        "admin-email": { type: "string" },
        "admin-name": { type: "string" },
        timezone: { type: "string" },
        force: { type: "boolean" },
      },
      strict: true,
    });
    if (!values.name || !values["admin-email"] || !values["admin-name"])
      throw new UsageError("create needs --name, --admin-email and --admin-name.");
    console.log(`Creating team "${values.name}"…`);
    const r = await createTeamWithAdmin(
      { teamName: values.name, timezone: values.timezone, admin: { email: values["admin-email"], name: values["admin-name"] } },
      { force: values.force === true },
    );
    console.log(`Team ${r.teamId} created with admin ${r.email} (and a #general channel).`);
    console.log("");
    console.log("One-time sign-in link for the admin (valid 24 hours, usable once; then set a password on the Profile page):");
    console.log(`  ${cliBaseUrl()}/sign-in/link/${r.signInToken}`);
    console.log("");
    console.log(`Add people: npm run user -- add --team ${r.teamId} --email someone@example.com --name "Someone"`);
  } else if (command === "list") {
    const teams = await db.team.findMany({
      orderBy: { id: "asc" },
      select: { id: true, name: true, _count: { select: { users: { where: { deactivated_at: null } } } } },
    });
    if (teams.length === 0) console.log("No team yet: npm run team -- create …");
    for (const t of teams) console.log(`${String(t.id).padStart(4)}  ${t.name}  (${t._count.users} active people)`);
  } else {
    throw new UsageError(command ? `Unknown command: ${command}` : "Missing command.");
  }
});
