/**
 * The caller and their team (spec §2.7, §4.2: GET /v1/me, /v1/me/teams, /v1/teams/).
 * - `getMe`: the authenticated user and the API key's team.
 * - `listMyTeams`: the API key's team only (spec: "currently only the team of the API key"), with
 *   `standupCount` = standups of the team visible to the caller (active and paused, the v2 rule).
 * - `getTeamWithUsers`: the team and the users taking part in at least one standup visible to the
 *   caller (deactivated users excluded), ordered by user id.
 */
import { db, queryRows, type Tx } from "@/lib/db";
import { standupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** User fields the v1 user serializers need (lib/api/v1/users.ts). */
export const userProfileSelect = {
  id: true,
  chat_id: true,
  username: true,
  realname: true,
  firstname: true,
  email: true,
  avatar_url: true,
  timezone: true,
  title: true,
  is_admin: true,
  is_billing_admin: true,
} satisfies Prisma.UserSelect;

export type UserProfile = Prisma.UserGetPayload<{ select: typeof userProfileSelect }>;
export type TeamSummary = { id: number; name: string };

/**
 * The authenticated user and the key's team.
 * @throws NotFoundError if the user vanished between authentication and this read.
 */
export async function getMe(actor: Actor, client: Tx = db): Promise<{ user: UserProfile; team: TeamSummary }> {
  // One raw statement (issue 14): the same row as `userProfileSelect` plus the team, without the
  // query compiler's cost per call.
  const [row] = await queryRows<UserProfile & { team_name: string }>(
    Prisma.sql`
    SELECT u.id, u.chat_id, u.username, u.realname, u.firstname, u.email, u.avatar_url, u.timezone, u.title,
      u.is_admin, u.is_billing_admin, t.name AS team_name
    FROM users u JOIN teams t ON t.id = u.team_id
    WHERE u.id = ${actor.userId} AND u.team_id = ${actor.teamId}`,
    client,
  );
  if (!row) throw new NotFoundError("User");
  const { team_name, ...user } = row;
  return { user, team: { id: actor.teamId, name: team_name } };
}

/** Teams of the caller: only the key's team, with the caller's admin flag and visible standup count. */
export async function listMyTeams(actor: Actor, client: Tx = db): Promise<Array<TeamSummary & { isAdmin: boolean; standupCount: number }>> {
  const [team, standupCount] = await Promise.all([
    client.team.findUnique({ where: { id: actor.teamId }, select: { id: true, name: true } }),
    client.checkin.count({ where: standupWhere(actor) }),
  ]);
  if (!team) return [];
  return [{ ...team, isAdmin: actor.isAdmin, standupCount }];
}

/** The key's team with the users taking part in at least one standup visible to the caller. */
export async function getTeamWithUsers(actor: Actor, client: Tx = db): Promise<TeamSummary & { users: UserProfile[] }> {
  const [team, users] = await Promise.all([
    client.team.findUnique({ where: { id: actor.teamId }, select: { id: true, name: true } }),
    client.user.findMany({
      where: { team_id: actor.teamId, deactivated_at: null, checkin_members: { some: { checkin: standupWhere(actor) } } },
      select: userProfileSelect,
      orderBy: { id: "asc" },
    }),
  ]);
  if (!team) throw new NotFoundError("Team");
  return { ...team, users };
}
