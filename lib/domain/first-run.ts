/**
 * First run (issue 11): on a database without any team, create the team and its first admin.
 * Used by the one-time /setup page (with a password) and by `npm run team -- create` (without one:
 * it returns a one-time sign-in link). Serialised with a transaction-level advisory lock and a
 * re-check, so two concurrent setups cannot both create a "first" team; once any team exists,
 * `setupFirstTeam` refuses and `needsSetup` is false for good. A further team with the name or the
 * admin e-mail of an existing one is refused unless forced (issue 41 item 6: the command after the
 * setup page made a second "Acme" with the same admin).
 */
import { randomBytes } from "node:crypto";
import { hashPassword } from "@/lib/auth/password";
import { issueToken } from "@/lib/auth/tokens";
import { db, queryRows, type Tx } from "@/lib/db";
import { recordAudit } from "@/lib/domain/audit";
import { ConflictError, InvalidParameterError } from "@/lib/domain/errors";
import { usersByEmail } from "@/lib/domain/exact-lookup";
import { checkNewPassword, createPerson, normaliseEmail, normaliseName, normaliseTimezone } from "@/lib/domain/people";
import { Prisma } from "@/lib/generated/prisma/client";

/** Advisory lock key of team creation ("teamsetu" as a number). */
const SETUP_LOCK = 0x7465616d73657475n;

/** True when the database has no team yet (the setup page is shown). */
export async function needsSetup(tx: Tx = db): Promise<boolean> {
  return (await tx.team.count()) === 0;
}

/** A chat-platform-style team id (`T` + 10 characters). */
function newTeamChatId(): string {
  return `T${randomBytes(8).toString("hex").toUpperCase().slice(0, 10)}`;
}

export type NewTeamInput = {
  teamName: string;
  timezone?: string;
  admin: { email: string; name: string; password?: string; timezone?: string };
};

/**
 * Refuses a new team whose name, or whose admin's e-mail, an existing team already has: both
 * compared exactly ignoring case (`lower(x) = lower($1)`, never a pattern). The one-line message
 * names the existing team and its id and how to go on. @throws ConflictError (`TEAM_EXISTS`).
 */
async function refuseDuplicateTeam(tx: Tx, teamName: string, adminEmail: string): Promise<void> {
  const [named] = await queryRows<{ id: number; name: string }>(
    Prisma.sql`SELECT id, name FROM teams WHERE lower(name) = lower(${teamName}) ORDER BY id LIMIT 1`,
    tx,
  );
  const proceed = (id: number) => `use it (npm run user -- add --team ${id} …), or add --force to create another team anyway`;
  if (named) throw new ConflictError(`Team ${named.id} "${named.name}" already exists: ${proceed(named.id)}`, "TEAM_EXISTS");
  const [person] = await usersByEmail([adminEmail], {}, tx);
  if (person) {
    const team = await tx.team.findUniqueOrThrow({ where: { id: person.team_id }, select: { id: true, name: true } });
    throw new ConflictError(`${person.email} already belongs to team ${team.id} "${team.name}": ${proceed(team.id)}`, "TEAM_EXISTS");
  }
}

/**
 * Creates a team with its first admin (any time: the command may add further teams).
 * Without `admin.password` a 24-hour one-time sign-in link token is returned.
 * @param opts.onlyIfEmpty refuse once any team exists (the /setup page);
 *   opts.force create even when a team has the same name or admin e-mail (else refused).
 * Audit: `team.setup`. @throws InvalidParameterError, ConflictError.
 */
export async function createTeamWithAdmin(
  input: NewTeamInput,
  opts: { onlyIfEmpty?: boolean; force?: boolean } = {},
): Promise<{ teamId: number; userId: number; email: string; signInToken: string | null }> {
  const teamName = input.teamName.trim();
  if (teamName.length === 0 || teamName.length > 100) throw new InvalidParameterError("Team name must have 1 to 100 characters");
  const timezone = normaliseTimezone(input.timezone);
  const passwordHash = input.admin.password !== undefined ? await hashPassword(checkNewPassword(input.admin.password)) : null;
  normaliseName(input.admin.name);
  const adminEmail = normaliseEmail(input.admin.email);
  return db.$transaction(async (t) => {
    await t.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
    if (opts.onlyIfEmpty && !(await needsSetup(t))) throw new ConflictError("This service is already set up: sign in instead");
    if (!opts.force) await refuseDuplicateTeam(t, teamName, adminEmail);
    const team = await t.team.create({ data: { name: teamName, chat_id: newTeamChatId(), timezone }, select: { id: true } });
    const user = await createPerson(t, team.id, {
      email: input.admin.email,
      name: input.admin.name,
      role: "admin",
      timezone: input.admin.timezone ?? timezone,
      passwordHash,
    });
    await t.channel.create({
      data: {
        team_id: team.id,
        chat_id: `C${randomBytes(5).toString("hex").toUpperCase()}`,
        name: "general",
        members: { create: { user_id: user.id } },
      },
    });
    const signInToken = passwordHash ? null : (await issueToken(t, { teamId: team.id, userId: user.id, kind: "sign_in" })).token;
    await recordAudit(t, {
      teamId: team.id,
      actorId: null,
      action: "team.setup",
      target: `team:${team.id}`,
      details: { name: teamName, admin: user.email },
    });
    return { teamId: team.id, userId: user.id, email: user.email, signInToken };
  });
}

/** The /setup page's action: only on an empty database, with a password. @throws ConflictError once set up. */
export function setupFirstTeam(input: NewTeamInput & { admin: { password: string } }) {
  return createTeamWithAdmin(input, { onlyIfEmpty: true });
}
