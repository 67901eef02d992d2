/**
 * First run (issue 11): on a database without any team, create the team and its first admin.
 * Used by the one-time /setup page (with a password) and by `npm run team -- create` (without one:
 * it returns a one-time sign-in link). Serialised with a transaction-level advisory lock and a
 * re-check, so two concurrent setups cannot both create a "first" team; once any team exists,
 * `setupFirstTeam` refuses and `needsSetup` is false for good.
 */
import { randomBytes } from "node:crypto";
import { hashPassword } from "@/lib/auth/password";
import { issueToken } from "@/lib/auth/tokens";
import { db, type Tx } from "@/lib/db";
import { recordAudit } from "@/lib/domain/audit";
import { ConflictError, InvalidParameterError } from "@/lib/domain/errors";
import { checkNewPassword, createPerson, normaliseName, normaliseTimezone } from "@/lib/domain/people";

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
 * Creates a team with its first admin (any time: the command may add further teams).
 * Without `admin.password` a 24-hour one-time sign-in link token is returned.
 * Audit: `team.setup`. @throws InvalidParameterError.
 */
export async function createTeamWithAdmin(
  input: NewTeamInput,
  opts: { onlyIfEmpty?: boolean } = {},
): Promise<{ teamId: number; userId: number; email: string; signInToken: string | null }> {
  const teamName = input.teamName.trim();
  if (teamName.length === 0 || teamName.length > 100) throw new InvalidParameterError("Team name must have 1 to 100 characters");
  const timezone = normaliseTimezone(input.timezone);
  const passwordHash = input.admin.password !== undefined ? await hashPassword(checkNewPassword(input.admin.password)) : null;
  normaliseName(input.admin.name);
  return db.$transaction(async (t) => {
    await t.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
    if (opts.onlyIfEmpty && !(await needsSetup(t))) throw new ConflictError("This service is already set up: sign in instead");
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
