/**
 * Dashboard session → Actor. Server components and server actions call `getActor()`; it maps the
 * next-auth session to the same `Actor` an API key resolves to (team-scoped, fresh role and admin
 * flag, deactivated users and sessions of an older `session_version` rejected) or redirects to /sign-in.
 */
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { cache } from "react";
import { authOptions } from "@/lib/auth/next-auth";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { noteRequest } from "@/lib/logger";

/** The signed-in user shown in the dashboard chrome. */
export type SessionUser = Actor & { realname: string; email: string; teamName: string; timezone: string };

/** Session user or null (one query per request, memoised with React `cache`); notes the user as the request's actor for its log line. */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions);
  if (!session?.userId || !session.teamId) return null;
  const user = await db.user.findFirst({
    where: { id: session.userId, team_id: session.teamId, deactivated_at: null, session_version: session.sessionVersion ?? 0 },
    select: {
      id: true,
      role: true,
      chat_id: true,
      team_id: true,
      is_admin: true,
      realname: true,
      email: true,
      timezone: true,
      team: { select: { name: true } },
    },
  });
  if (!user) return null;
  noteRequest(await requestHeaders(), { actorId: user.id });
  return {
    teamId: user.team_id,
    userId: user.id,
    userChatId: user.chat_id,
    isAdmin: user.is_admin,
    role: user.role,
    realname: user.realname,
    email: user.email,
    teamName: user.team.name,
    timezone: user.timezone,
  };
});

/** The current request's headers, or null outside a request (scripts, tests). */
async function requestHeaders(): Promise<Headers | null> {
  try {
    return (await headers()) as unknown as Headers;
  } catch {
    return null;
  }
}

/** The Actor of a session user (team, user, chat id, admin flag and role: every field the access rules read). */
export function sessionActor(user: SessionUser): Actor {
  const { teamId, userId, userChatId, isAdmin, role } = user;
  return { teamId, userId, userChatId, isAdmin, role };
}

/** The caller's Actor; redirects to /sign-in when there is no valid session. */
export async function getActor(): Promise<Actor> {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in");
  return sessionActor(user);
}
