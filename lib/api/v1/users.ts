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
 * - v1 standup `master`: the creator's numeric id (the "array of number, user ids" form v1
 *   standup bodies take, spec §4.3);
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

export type V1Role = "admin" | "billing_admin" | "member";

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

/** v1 user object (compatibility.md) with the chat-style string id: `/v1/teams/` users (spec §2.7) and v1 standup users. */
export type V1User = { id: string; role: V1Role; email: string; username: string; realname: string; profile_img: string };

/** v1 user object with the numeric id: inside v1 polls, and poll voters (spec §2.8). */
export type V1LegacyUser = Omit<V1User, "id"> & { id: number };

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

/** The `user` of `GET /v1/me` (spec §2.7). */
export type V1CurrentUser = {
  id: string;
  username: string;
  realname: string;
  firstname: string;
  email: string;
  profile_img: string;
  timezone: string;
  role: V1Role;
  is_admin: boolean;
  is_billing_admin: boolean;
};

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
