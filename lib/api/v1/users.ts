/**
 * User and team serializers of the current-classed v1 endpoints (spec §2.7) and the user objects
 * inside v1 standups, polls and teams (compatibility.md: `id`, `role`, `email`, `username`,
 * `realname`, `profile_img`).
 *
 * User ids: the service has two ids per user, the chat-style string id (`U0123ABCD`) and a
 * numeric id. Which one a v1 user object carries follows the spec for each place:
 * - `/v1/me` `user.id`, `/v1/teams/` `users[].id` (spec §2.7 says string) and v1 standup
 *   `users[].id` ("not shown" in the spec; existing clients parse the chat-style string there, as
 *   in `/v1/teams/`, and fail on a number): the chat-style string — `serializeUserV1`;
 * - v1 poll `users[].id` (spec §2.8 says number), and therefore the poll's `creator` and the
 *   voters in `/v1/polls/{id}/votes`, which are the same user objects: the numeric id;
 * - v1 standup `master`: the creator's chat-style string id, the same form as that standup's
 *   `users[].id` (the spec does not type it; existing Geekbot clients parse it as a string, issue 43);
 * - v1 report `member.id` (spec §2.8 says string): the chat-style string (lib/api/v1/reports.ts).
 * v1 bodies accept either form anywhere a user id is expected (compatibility.md).
 *
 * Decisions where the spec is silent:
 * - `role` is `admin` | `billing_admin` | `member` (admin wins over billing admin) everywhere,
 *   including `/v1/me`, so clients compare one vocabulary.
 * - `profile_img` is the stored avatar URL; users without one get a Gravatar identicon URL
 *   (192 px) derived from the e-mail, so the field is always a usable string URL.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { zChatUserId, zCount, zId } from "@/lib/api/wire";

/** The user fields these serializers read. */
export type V1UserSource = {
  chat_id: string;
  username: string;
  realname: string;
  email: string;
  avatar_url: string | null;
  is_admin: boolean;
  is_billing_admin: boolean;
};

export const zRole = z.enum(["admin", "billing_admin", "member"]);
export const zProfileImg = z
  .string()
  .meta({ description: "Profile image URL (192 px).", example: "https://avatars.example/U0123ABCD.png" });

export type V1Role = z.output<typeof zRole>;

/** Role string of a user: admin, billing_admin or member. */
export function roleOf(user: { is_admin: boolean; is_billing_admin: boolean }): V1Role {
  if (user.is_admin) return "admin";
  if (user.is_billing_admin) return "billing_admin";
  return "member";
}

/** Profile image URL (192 px): the avatar, or a Gravatar identicon of the e-mail. */
export function profileImgOf(user: { avatar_url: string | null; email: string }): string {
  if (user.avatar_url) return user.avatar_url;
  const hash = createHash("md5").update(user.email.trim().toLowerCase()).digest("hex");
  return `https://www.gravatar.com/avatar/${hash}?s=192&d=identicon`;
}

/** User object of GET /v1/teams/ (spec §2.7) and inside v1 standups: chat-style string id. */
export const teamUserV1Schema = z
  .strictObject({ id: zChatUserId, role: zRole, email: z.string(), username: z.string(), realname: z.string(), profile_img: zProfileImg })
  .meta({ id: "TeamUserV1" });

/** User object inside v1 polls and among poll voters (spec §2.8: `id` number; compatibility.md fields). */
export const legacyUserV1Schema = z
  .strictObject({
    id: zId.meta({ description: "Numeric user id." }),
    role: zRole,
    email: z.string(),
    username: z.string(),
    realname: z.string(),
    profile_img: zProfileImg,
  })
  .meta({ id: "LegacyUserV1" });

/** v1 user object with the chat-style string id: `/v1/teams/` users (spec §2.7) and v1 standup users. */
export type V1User = z.output<typeof teamUserV1Schema>;

/** v1 user object with the numeric id: inside v1 polls, and poll voters (spec §2.8). */
export type V1LegacyUser = z.output<typeof legacyUserV1Schema>;

/** Serializes a user object with the chat-style string id: `/v1/teams/` users (spec §2.7), v1 standup users. */
export function serializeUserV1(user: V1UserSource): V1User {
  return {
    id: user.chat_id,
    role: roleOf(user),
    email: user.email,
    username: user.username,
    realname: user.realname,
    profile_img: profileImgOf(user),
  };
}

/** Serializes a user object with the numeric id: users of v1 polls, poll `creator`, poll voters (spec §2.8). */
export function serializeLegacyUserV1(user: V1UserSource & { id: number }): V1LegacyUser {
  return { ...serializeUserV1(user), id: user.id };
}

/** `user` of GET /v1/me (spec §2.7). */
export const currentUserV1Schema = z
  .strictObject({
    id: zChatUserId,
    username: z.string(),
    realname: z.string(),
    firstname: z.string(),
    email: z.string(),
    profile_img: zProfileImg,
    timezone: z.string(),
    role: z.string().meta({ description: "Role description.", example: "admin" }),
    is_admin: z.boolean(),
    is_billing_admin: z.boolean(),
  })
  .meta({ id: "CurrentUserV1" });

/** GET /v1/me (spec §2.7). */
export const meV1Schema = z
  .strictObject({ user: currentUserV1Schema, team: z.strictObject({ id: zId, name: z.string() }) })
  .meta({ id: "MeV1" });

/** GET /v1/me/teams (spec §2.7). */
export const myTeamsV1Schema = z
  .strictObject({
    teams: z.array(z.strictObject({ id: zId, name: z.string(), is_admin: z.boolean(), standup_count: zCount })),
  })
  .meta({ id: "MyTeamsV1" });

/** GET /v1/teams/ (spec §2.7): one object. */
export const teamV1Schema = z
  .strictObject({
    id: zId,
    name: z.string(),
    users: z.array(teamUserV1Schema).meta({ description: "Users participating in at least one standup visible to the caller." }),
  })
  .meta({ id: "TeamV1" });

/** The `user` of `GET /v1/me` (spec §2.7). */
export type V1CurrentUser = z.output<typeof currentUserV1Schema>;

/** Serializes the current user of `GET /v1/me` (spec §2.7). */
export function serializeCurrentUserV1(user: V1UserSource & { firstname: string; timezone: string }): V1CurrentUser {
  return {
    id: user.chat_id,
    username: user.username,
    realname: user.realname,
    firstname: user.firstname,
    email: user.email,
    profile_img: profileImgOf(user),
    timezone: user.timezone,
    role: roleOf(user),
    is_admin: user.is_admin,
    is_billing_admin: user.is_billing_admin,
  };
}

/** `team` of `GET /v1/me` (spec §2.7). */
export function serializeTeamV1(team: { id: number; name: string }): { id: number; name: string } {
  return { id: team.id, name: team.name };
}

/** Team entry of `GET /v1/me/teams` (spec §2.7). */
export function serializeMyTeamV1(team: { id: number; name: string; isAdmin: boolean; standupCount: number }) {
  return { id: team.id, name: team.name, is_admin: team.isAdmin, standup_count: team.standupCount };
}

/** Team of `GET /v1/teams/` (spec §2.7): one object with its users. */
export function serializeTeamWithUsersV1(team: { id: number; name: string; users: V1UserSource[] }) {
  return { id: team.id, name: team.name, users: team.users.map(serializeUserV1) };
}
