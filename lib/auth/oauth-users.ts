/**
 * OAuth/OIDC first sign-in (issue 11): when a verified e-mail has no active account but its domain
 * is in `AUTH_ALLOWED_DOMAINS`, the person is created as a member of that domain's team.
 * Entries are `domain` (the oldest team) or `domain=<team id>`, comma-separated, case-insensitive.
 */
import { db } from "@/lib/db";
import { emailKey, usersByEmail } from "@/lib/domain/exact-lookup";
import { createPerson } from "@/lib/domain/people";
import { allowedSignInDomains } from "@/lib/env";

/** Parses `AUTH_ALLOWED_DOMAINS` into domain → team id (null: the oldest team). */
export function parseAllowedDomains(value: string): Map<string, number | null> {
  const map = new Map<string, number | null>();
  for (const entry of value.split(",")) {
    const [domain, team] = entry.trim().toLowerCase().split("=");
    if (!domain) continue;
    const teamId = team ? Number(team) : null;
    map.set(domain, teamId !== null && Number.isInteger(teamId) && teamId > 0 ? teamId : null);
  }
  return map;
}

/**
 * The active user for an OAuth e-mail, created as a member when the domain is allowed.
 * @returns `{ id, team_id }`, or null when the domain is not allowed, the team does not exist, or
 *   the address belongs to a deactivated person of that team (they stay out).
 */
export async function findOrCreateOAuthUser(profile: { email: string; name: string | null; image: string | null }) {
  const email = profile.email.trim().toLowerCase();
  const domain = email.split("@")[1] ?? "";
  const allowed = parseAllowedDomains(allowedSignInDomains());
  if (!allowed.has(domain)) return null;
  const wanted = allowed.get(domain) ?? null;
  const team = await db.team.findFirst({ where: wanted ? { id: wanted } : {}, orderBy: { id: "asc" }, select: { id: true } });
  if (!team) return null;
  if (!emailKey(email)) return null;
  const [existing] = await usersByEmail([email], { teamId: team.id });
  if (existing) return null;
  const name = profile.name?.trim() || email.split("@")[0] || email;
  return db.$transaction((t) => createPerson(t, team.id, { email, name, role: "member", avatarUrl: profile.image }));
}
