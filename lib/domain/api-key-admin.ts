/**
 * API key management for the dashboard (Settings → API keys). Members manage their own keys;
 * team admins also see and revoke every key of their team. Revocation sets `revoked_at`, and the
 * API answers 401 for that key from the next request on (lib/auth/api-keys.ts checks it per call).
 */
import { invalidateApiKeys } from "@/lib/auth/api-key-cache";
import { createApiKey } from "@/lib/auth/api-keys";
import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { recordAudit } from "@/lib/domain/audit";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";

export type ApiKeyListItem = {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  owner: { id: number; realname: string };
  isOwn: boolean;
};

/**
 * Keys visible to the caller, newest first: their own, or the whole team's for admins.
 * Revoked keys are included (marked) so the history stays readable.
 */
export async function listApiKeys(actor: Actor, tx: Tx = db): Promise<ApiKeyListItem[]> {
  const rows = await tx.apiKey.findMany({
    where: { team_id: actor.teamId, ...(actor.isAdmin ? {} : { user_id: actor.userId }) },
    orderBy: [{ revoked_at: { sort: "desc", nulls: "first" } }, { created_at: "desc" }, { id: "desc" }],
    take: 200,
    select: {
      id: true,
      name: true,
      prefix: true,
      created_at: true,
      last_used_at: true,
      revoked_at: true,
      user: { select: { id: true, realname: true } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    owner: { id: r.user.id, realname: r.user.realname },
    isOwn: r.user.id === actor.userId,
  }));
}

/**
 * Creates a key for the caller. The plaintext `key` is returned once and never stored.
 * @throws InvalidParameterError for an empty or over-long name.
 */
export async function createApiKeyForActor(
  actor: Actor,
  input: { name: string },
  tx: Tx = db,
): Promise<{ id: number; key: string; prefix: string }> {
  const name = input.name.trim();
  if (!name) throw new InvalidParameterError("Give the key a name");
  if (name.length > 100) throw new InvalidParameterError("The name is too long (100 characters at most)");
  return createApiKey(tx, { teamId: actor.teamId, userId: actor.userId, name });
}

/**
 * Revokes a key: the caller's own, or any key of the team for admins. Idempotent.
 * @throws NotFoundError when the key is not the caller's to manage.
 */
export async function revokeApiKey(actor: Actor, input: { id: number }, tx?: Tx): Promise<void> {
  await inTransaction(tx, async (t) => {
    const key = await t.apiKey.findFirst({
      where: { id: input.id, team_id: actor.teamId, ...(actor.isAdmin ? {} : { user_id: actor.userId }) },
      select: { id: true, user_id: true, prefix: true, revoked_at: true },
    });
    if (!key) throw new NotFoundError("API key");
    if (key.revoked_at) return; // keep the first revocation time when revoking twice
    await t.apiKey.update({ where: { id: key.id }, data: { revoked_at: new Date() } });
    // Other instances hear of it through the api_keys trigger's NOTIFY; this one forgets it now.
    invalidateApiKeys(`key:${key.id}`);
    await recordAudit(t, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: "api_key.revoke",
      target: `api_key:${key.id}`,
      details: { prefix: key.prefix, owner: `user:${key.user_id}` },
    });
  });
}
