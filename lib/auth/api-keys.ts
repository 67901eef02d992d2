/**
 * API keys (spec §5, compatibility.md Transport): `api_` + 32 random bytes (base62-ish, url-safe).
 * Only the SHA-256 hex of the key is stored (unique column `api_keys.hash`); the plaintext is
 * returned once by `createApiKey`. `authenticateApiKey` resolves the `Authorization` header value
 * (raw key or `Bearer <key>`) to an Actor with one indexed query, cached in process for a few
 * seconds (lib/auth/api-key-cache.ts); revoked keys fail at once on every instance (LISTEN/NOTIFY).
 */
import { createHash, randomBytes } from "node:crypto";
import { apiKeyGeneration, cachedApiKey, rememberApiKey } from "@/lib/auth/api-key-cache";
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";

const KEY_PREFIX = "api_";
/** last_used_at is written at most this often per key (milliseconds). */
const LAST_USED_RESOLUTION_MS = 30_000;

/** SHA-256 hex of a plaintext key. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A new plaintext key: `api_` followed by 43 url-safe characters (32 random bytes). */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

/** Extracts the key from an Authorization header value: raw key or `Bearer <key>` (any case). */
export function keyFromAuthorization(header: string | null | undefined): string | null {
  if (!header) return null;
  const value = header.trim();
  const m = /^bearer\s+(.+)$/i.exec(value);
  const key = (m ? m[1] : value).trim();
  return key.length > 0 && key.length <= 512 ? key : null;
}

/**
 * Creates a key for a user of a team and returns the plaintext once.
 * @returns `{ key, id, prefix }`; `prefix` (first 12 characters) is what lists show.
 */
export async function createApiKey(
  db: Tx,
  input: { teamId: number; userId: number; name: string },
): Promise<{ key: string; id: number; prefix: string }> {
  const key = generateApiKey();
  const prefix = key.slice(0, 12);
  const row = await db.apiKey.create({
    data: { team_id: input.teamId, user_id: input.userId, name: input.name, prefix, hash: hashApiKey(key) },
    select: { id: true },
  });
  return { key, id: row.id, prefix };
}

/**
 * `authenticateApiKey` without a query, synchronously: null when the header carries no key, the
 * actor when the in-process cache holds the key (updating `last_used_at` as it does), undefined
 * when only the database can tell (then call `authenticateApiKey`). The API wrapper answers most
 * requests this way without creating a promise (issue 14: each one costs the request path time).
 */
export function cachedApiKeyActor(db: Tx, header: string | null | undefined): Actor | null | undefined {
  const key = keyFromAuthorization(header);
  return key ? cachedActor(db, hashApiKey(key)) : null;
}

/** The cached actor of a key hash (touching `last_used_at` at most every 30 s), or undefined. */
function cachedActor(db: Tx, hash: string): Actor | undefined {
  const hit = cachedApiKey(hash);
  if (!hit) return undefined;
  const now = Date.now();
  if (now - hit.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    hit.lastUsedAt = now;
    touchLastUsed(db, hit.actor.apiKeyId as number, now);
  }
  return hit.actor;
}

/**
 * Resolves an Authorization header to the key's actor, or null for a missing, unknown or revoked
 * key or a deactivated user. Served from the in-process cache when it holds the key (no query);
 * updates `last_used_at` at most every 30 s (fire and forget).
 */
export async function authenticateApiKey(db: Tx, header: string | null | undefined): Promise<Actor | null> {
  const key = keyFromAuthorization(header);
  if (!key) return null;
  const hash = hashApiKey(key);
  const cached = cachedActor(db, hash);
  if (cached) return cached;
  const now = Date.now();
  const generation = apiKeyGeneration();
  const row = await db.apiKey.findUnique({
    where: { hash },
    select: {
      id: true,
      revoked_at: true,
      last_used_at: true,
      user: { select: { id: true, chat_id: true, team_id: true, is_admin: true, role: true, deactivated_at: true } },
    },
  });
  if (!row || row.revoked_at || row.user.deactivated_at) return null;
  let lastUsedAt = row.last_used_at?.getTime() ?? 0;
  if (now - lastUsedAt > LAST_USED_RESOLUTION_MS) {
    lastUsedAt = now;
    touchLastUsed(db, row.id, now);
  }
  const actor: Actor = {
    teamId: row.user.team_id,
    userId: row.user.id,
    userChatId: row.user.chat_id,
    isAdmin: row.user.is_admin,
    role: row.user.role,
    apiKeyId: row.id,
  };
  rememberApiKey(hash, actor, lastUsedAt, generation);
  return actor;
}

function touchLastUsed(db: Tx, id: number, now: number): void {
  db.apiKey.update({ where: { id }, data: { last_used_at: new Date(now) } }).catch(() => {});
}
