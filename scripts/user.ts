/**
 * `npm run user -- <command>`: people from the command line (issue 11).
 *   add --team 1 --email e@x --name "Name" [--admin | --role manager] [--timezone Europe/Berlin]
 *       adds the person and prints a 7-day single-use invitation link (or e-mails it when SMTP_URL is set);
 *   list --team 1
 *   deactivate --team 1 --email e@x     (revokes API keys and sessions, removes from standups)
 *   reactivate --team 1 --email e@x
 * Actions are written to the team's audit log with no actor (the server). Database: lib/runtime/cli.ts.
 */
import { parseArgs } from "node:util";
import { db } from "@/lib/db";
import { parseRole } from "@/lib/domain/access";
import { recordAudit } from "@/lib/domain/audit";
import { NotFoundError } from "@/lib/domain/errors";
import { usersByEmail } from "@/lib/domain/exact-lookup";
import { createPerson, deactivatePerson, inviteExisting, normaliseEmail, reactivatePerson } from "@/lib/domain/people";
import { cliBaseUrl, runCommand, UsageError } from "@/lib/runtime/cli";

const USAGE = [
  "Usage:",
  '  npm run user -- add --team <id> --email someone@example.com --name "Someone" [--admin | --role manager|member] [--timezone Europe/Berlin]',
  "  npm run user -- list --team <id>",
  "  npm run user -- deactivate --team <id> --email someone@example.com",
  "  npm run user -- reactivate --team <id> --email someone@example.com",
].join("\n");

const OPTIONS = {
  team: { type: "string" },
  email: { type: "string" },
  name: { type: "string" },
  admin: { type: "boolean" },
  role: { type: "string" },
  timezone: { type: "string" },
} as const;

async function teamOf(value: string | undefined) {
  const id = Number(value);
  if (!value || !Number.isInteger(id) || id < 1)
    throw new UsageError("--team <numeric team id> is required (npm run team -- list shows them).");
  const team = await db.team.findUnique({ where: { id }, select: { id: true, name: true } });
  if (!team) throw new NotFoundError(`Team ${id}`);
  return team;
}

async function userOf(teamId: number, email: string | undefined) {
  if (!email) throw new UsageError("--email is required.");
  const [user] = await usersByEmail([normaliseEmail(email)], { teamId });
  if (!user) throw new NotFoundError(`User ${email}`);
  return user;
}

await runCommand(USAGE, async () => {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({ args: rest, options: OPTIONS, strict: true });
  if (command === "add") {
    const team = await teamOf(values.team);
    if (!values.email || !values.name) throw new UsageError("add needs --email and --name.");
    const role = values.admin ? "admin" : values.role ? parseRole(values.role) : "member";
    const result = await db.$transaction(async (t) => {
      const user = await createPerson(t, team.id, {
        email: values.email as string,
        name: values.name as string,
        role,
        timezone: values.timezone,
      });
      await recordAudit(t, {
        teamId: team.id,
        actorId: null,
        action: "user.add",
        target: `user:${user.id}`,
        details: { email: user.email, role },
      });
      return { user, invitation: await inviteExisting(t, user, { actorId: null, baseUrl: cliBaseUrl(), teamName: team.name }) };
    });
    console.log(`Added ${result.user.realname} <${result.user.email}> (${role}, ${result.user.chat_id}) to ${team.name}.`);
    if (result.invitation.emailed) console.log("The invitation was e-mailed (valid 7 days).");
    else console.log(`Invitation link (valid 7 days, usable once; shown only now):\n  ${result.invitation.link}`);
  } else if (command === "list") {
    const team = await teamOf(values.team);
    const users = await db.user.findMany({
      where: { team_id: team.id },
      orderBy: { id: "asc" },
      select: { id: true, email: true, realname: true, role: true, deactivated_at: true, password_hash: true },
    });
    for (const u of users) {
      const status = u.deactivated_at ? "deactivated" : u.password_hash ? "active" : "invited";
      console.log(`${String(u.id).padStart(5)}  ${u.role.padEnd(7)}  ${status.padEnd(11)}  ${u.realname} <${u.email}>`);
    }
  } else if (command === "deactivate" || command === "reactivate") {
    const team = await teamOf(values.team);
    const user = await userOf(team.id, values.email);
    if (command === "deactivate") await deactivatePerson(null, { teamId: team.id, userId: user.id });
    else await reactivatePerson(null, { teamId: team.id, userId: user.id });
    console.log(`${values.email}: ${command}d.`);
  } else {
    throw new UsageError(command ? `Unknown command: ${command}` : "Missing command.");
  }
});
