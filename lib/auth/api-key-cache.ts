/**
 * In-process cache of API-key resolutions (issue 14), shared by every request of one instance,
 * invalidated across instances through PostgreSQL LISTEN/NOTIFY.
 *
 * - An entry (the key's actor, keyed by the SHA-256 of the key) lives `API_KEY_CACHE_TTL_MS`
 *   (default 5,000 ms; 0 turns the cache off). Unknown and revoked keys are never cached, so a new
 *   key works at once.
 * - The migration `20261122170000_multi_instance` adds triggers that `pg_notify('checkin_api_keys',
 *   …)` when a key is revoked/changed/deleted (`key:<id>`) or a user is deactivated/changed/deleted
 *   (`user:<id>`), and `all` on TRUNCATE. NOTIFY is delivered at commit, to every instance.
 * - Each process holds one listening connection on `DIRECT_DATABASE_URL` (LISTEN does not work
 *   through PgBouncer in transaction mode), else `DATABASE_URL`. The cache is used only while that
 *   connection is listening: before it is up and after it is lost (until it is back and the cache
 *   has been emptied) every request reads the database, so a revocation is never missed.
 * - A generation counter closes the race "read the key, revocation commits, store the stale
 *   entry": a lookup stores its result only when no invalidation arrived since it began.
 */
import pg from "pg";
import type { Actor } from "@/lib/domain/actor";
import { apiKeyCacheTtlMs, databaseUrl, directDatabaseUrl } from "@/lib/env";
import { dropProcessState, processState } from "@/lib/runtime/process-state";

/** The NOTIFY channel the api_keys/users triggers write to. */
export const API_KEY_CHANNEL = "checkin_api_keys";

type Entry = { actor: Actor; expires: number; lastUsedAt: number };

type State = {
  entries: Map<string, Entry>;
  generation: number;
  listening: boolean;
  client: pg.Client | null;
  starting: boolean;
  closed: boolean;
  ttlMs: number;
};

function state(): State {
  return processState<State>("__checkinApiKeyCache", () => ({
    entries: new Map(),
    generation: 0,
    listening: false,
    client: null,
    starting: false,
    closed: false,
    ttlMs: apiKeyCacheTtlMs(),
  }));
}

/** Drops entries matching a notification payload (`key:<id>`, `user:<id>`, anything else: all). */
export function invalidateApiKeys(payload: string): void {
  const s = state();
  s.generation++;
  const [kind, raw] = payload.split(":");
  const id = Number(raw);
  if ((kind !== "key" && kind !== "user") || !Number.isInteger(id)) {
    s.entries.clear();
    return;
  }
  for (const [hash, e] of s.entries) {
    if (kind === "key" ? e.actor.apiKeyId === id : e.actor.userId === id) s.entries.delete(hash);
  }
}

/** Opens the listening connection (once per process; reconnects after a loss with a 1 s delay). */
function listen(): void {
  const s = state();
  const url = directDatabaseUrl() ?? databaseUrl();
  if (s.starting || s.client || s.closed || s.ttlMs <= 0 || !url) return;
  s.starting = true;
  const client = new pg.Client({ connectionString: url, application_name: "checkin-api-key-cache" });
  const lost = () => {
    if (s.client !== client) return;
    s.listening = false;
    s.client = null;
    s.entries.clear();
    s.generation++;
    client.end().catch(() => {});
    if (!s.closed) setTimeout(listen, 1000).unref();
  };
  client.on("error", lost);
  client.on("end", lost);
  client.on("notification", (msg) => {
    if (msg.channel === API_KEY_CHANNEL) invalidateApiKeys(msg.payload ?? "all");
  });
  s.client = client;
  client
    .connect()
    .then(() => client.query(`LISTEN ${API_KEY_CHANNEL}`))
    .then(() => {
      if (s.client !== client) return;
      // Unref the socket so a script or test process can exit with the listener open.
      (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      s.entries.clear();
      s.generation++;
      s.listening = true;
    })
    .catch(lost)
    .finally(() => {
      s.starting = false;
    });
}

/**
 * The cached actor of a key hash, or undefined (then call `rememberApiKey` after the lookup with
 * the generation returned by `apiKeyGeneration()` before it). Starts the listener on first use.
 */
export function cachedApiKey(hash: string): Entry | undefined {
  const s = state();
  if (!s.listening) {
    listen();
    return undefined;
  }
  const e = s.entries.get(hash);
  if (!e) return undefined;
  if (e.expires <= Date.now()) {
    s.entries.delete(hash);
    return undefined;
  }
  return e;
}

/** The invalidation generation: read it before a database lookup, pass it to `rememberApiKey`. */
export function apiKeyGeneration(): number {
  return state().generation;
}

/** Stores a resolved key unless the cache is off, not listening, or invalidated since `generation`. */
export function rememberApiKey(hash: string, actor: Actor, lastUsedAt: number, generation: number): void {
  const s = state();
  if (!s.listening || generation !== s.generation) return;
  if (s.entries.size > 10_000) s.entries.clear();
  s.entries.set(hash, { actor, expires: Date.now() + s.ttlMs, lastUsedAt });
}

/** Closes the listening connection (scripts and tests call this through disconnectDb). */
export async function closeApiKeyCache(): Promise<void> {
  const s = state();
  s.closed = true;
  s.listening = false;
  s.entries.clear();
  const c = s.client;
  s.client = null;
  await c?.end().catch(() => {});
  dropProcessState("__checkinApiKeyCache");
}
