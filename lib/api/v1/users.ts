/**
 * User and team serializers of the current-classed v1 endpoints (spec §2.7) and the user objects
 * inside v1 standups, polls and teams (compatibility.md: `id`, `role`, `email`, `username`,
 * `realname`, `profile_img`).
 *
 * Decisions where the spec is silent:
 * - `id` is always the chat-style string id (U0123ABCD), as in §2.7 and existing clients.
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

/** v1 user object (compatibility.md): inside standups, polls and `/v1/teams/`. */
export type V1User = { id: string; role: V1Role; email: string; username: string; realname: string; profile_img: string };

/** Serializes a user object of v1 standups, polls and teams. */
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
