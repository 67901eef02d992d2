/**
 * Team roles (issue 11). admin: everything in the team; manager: reads every non-confidential
 * standup's reports and participation in the dashboard, creates standups and polls, cannot manage
 * people or other people's keys; member: what the API spec says. `users.is_admin` mirrors
 * `role = admin` (the API's `is_admin` field), so the column and the role never disagree.
 */
import type { Actor } from "@/lib/domain/actor";
import { InvalidParameterError } from "@/lib/domain/errors";

export const ROLES = ["admin", "manager", "member"] as const;
export type Role = (typeof ROLES)[number];

/** The actor's role (older actors without `role`: admin when `isAdmin`, else member). */
export function roleOf(actor: Pick<Actor, "isAdmin" | "role">): Role {
  return actor.role ?? (actor.isAdmin ? "admin" : "member");
}

/** Parses a role name. @throws InvalidParameterError for anything else. */
export function parseRole(value: unknown): Role {
  if (typeof value === "string" && (ROLES as readonly string[]).includes(value)) return value as Role;
  throw new InvalidParameterError("role must be admin, manager or member");
}

/** True for admins: invite, change roles, deactivate, manage channels and other people's keys, read the audit log. */
export function canManagePeople(actor: Pick<Actor, "isAdmin" | "role">): boolean {
  return roleOf(actor) === "admin";
}

/** True for admins and managers: read every non-confidential standup of the team in the dashboard. */
export function readsTeamWide(actor: Pick<Actor, "isAdmin" | "role">): boolean {
  const role = roleOf(actor);
  return role === "admin" || role === "manager";
}
