/**
 * Idempotency-Key for the v2 write endpoints (spec §7, issue #3), after Stripe's keys and the IETF
 * `Idempotency-Key` header draft.
 *
 * - Key: 1–255 visible ASCII characters (0x21–0x7E), bare (`abc-123`) or in the draft's quoted
 *   structured-field form (`"abc-123"`, no `"` or `\` inside); both forms name the same key.
 *   Anything else: 400 INVALID_PARAMETER, nothing stored.
 * - Scope: (team, user) of the API key — one caller never sees another's stored response.
 * - Fingerprint: SHA-256 of method, route pattern, path parameters and the canonical (key-sorted)
 *   JSON body. Same key + same fingerprint after completion → the stored status, body and headers
 *   are replayed with `Idempotent-Replayed: true` (a replayed create still answers 201). Same key +
 *   other fingerprint → 422 MISMATCHED_IDEMPOTENCY_BODY.
 * - While the first request runs, it holds a transaction-level PostgreSQL advisory lock on the
 *   key (`pg_try_advisory_xact_lock`): a duplicate on any app instance gets 409
 *   IDEMPOTENCY_KEY_IN_USE with `Retry-After` (seconds). The lock belongs to the transaction, so it
 *   is released at COMMIT/ROLLBACK, or as soon as PostgreSQL sees the connection of a crashed
 *   process close: a retry after a crash proceeds at once (issue 13), no timestamp to wait out.
 * - The business writes, their outbox rows and the stored response commit in ONE transaction; a
 *   rolled-back write stores nothing, so the key stays usable.
 * - Stored outcomes: successes and deterministic business errors (NOT_FOUND, CHANNEL_NOT_FOUND,
 *   USER_NOT_FOUND, UNPROCESSABLE). Not stored (key released): validation 400s
 *   (INVALID_PARAMETER), 401, 409, 429 and 5xx.
 * - Retention: `expires_at` = creation + 24 h (IDEMPOTENCY_TTL_HOURS). An expired record is ignored
 *   (and replaced) by a new request; a periodic job deletes expired rows.
 */

import { createHash } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "@/lib/api/cursor";
import { API_HEADERS, ApiError, json, toErrorResponse } from "@/lib/api/errors";
import { retryOnceIfUnavailable } from "@/lib/api/unavailable";
import { type Tx, transaction } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError, InvalidParameterError } from "@/lib/domain/errors";

/** Hours a completed record is kept (and replayed). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** `Retry-After` (seconds) sent with 409 while the first request is still running. */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;
/** Response header marking a replayed response. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** Lets browser clients read the idempotency headers (CORS). */
const EXPOSE_HEADERS = { "Access-Control-Expose-Headers": `${REPLAYED_HEADER}, Retry-After` };

/** What a write handler returns: status, JSON body and extra headers (all replayable). */
export type WriteResult = { status: number; body: unknown; headers?: Record<string, string> };

/** Domain error codes whose response is deterministic and therefore stored and replayed. */
const STORED_ERROR_CODES = new Set(["NOT_FOUND", "CHANNEL_NOT_FOUND", "USER_NOT_FOUND", "UNPROCESSABLE", "FORBIDDEN"]);

const BARE_KEY = /^[\x21-\x7e]{1,255}$/;
const QUOTED_KEY = /^"([\x21\x23-\x5b\x5d-\x7e]{1,255})"$/;

/**
 * Validates an `Idempotency-Key` header value.
 * @returns the key (quotes of the quoted form removed), or null when the header is absent.
 * @throws InvalidParameterError when present but malformed (empty, too long, spaces, non-ASCII…).
 */
export function parseIdempotencyKey(header: string | null | undefined): string | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (value.startsWith('"')) {
    const m = QUOTED_KEY.exec(value);
    if (m) return m[1];
  } else if (BARE_KEY.test(value)) {
    return value;
  }
  throw new InvalidParameterError("Idempotency-Key must be 1-255 visible ASCII characters, bare or as a quoted string");
}

/**
 * Request fingerprint: SHA-256 hex of method, route pattern (e.g. "/v2/reports/{reportId}"),
 * path parameters and the canonical JSON body (null when the request has none), serialized with
 * `canonicalJson` (lib/api/cursor.ts).
 */
export function requestFingerprint(input: { method: string; route: string; params: Record<string, unknown>; body: unknown }): string {
  const material = canonicalJson([input.method.toUpperCase(), input.route, input.params ?? {}, input.body ?? null]);
  return createHash("sha256").update(material, "utf8").digest("hex");
}

type StoredRecord = {
  id: number;
  fingerprint: string;
  response_status: number | null;
  response_body: unknown;
  response_headers: unknown;
  expires_at: Date;
};

/**
 * The advisory-lock id of (team, user, key): the first 8 bytes of a SHA-256, as a signed bigint.
 * A request holds `pg_try_advisory_xact_lock(id)` for the life of its write transaction, so the
 * lock goes away with the transaction: at COMMIT/ROLLBACK, or as soon as PostgreSQL sees the
 * connection of a crashed process close.
 */
export function idempotencyLockId(actor: Pick<Actor, "teamId" | "userId">, key: string): bigint {
  const digest = createHash("sha256").update(`idempotency\u0000${actor.teamId}\u0000${actor.userId}\u0000${key}`, "utf8").digest();
  return digest.readBigInt64BE(0);
}

function busyError(): ApiError {
  return new ApiError(409, "IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry later", {
    ...EXPOSE_HEADERS,
    "Retry-After": String(IDEMPOTENCY_RETRY_AFTER_SECONDS),
  });
}

/**
 * The stored body is the exact JSON text sent the first time, kept as a JSON string value
 * (jsonb would reorder object keys), so a replay is byte-identical.
 */
function replay(record: StoredRecord): Response {
  const headers = (record.response_headers ?? {}) as Record<string, string>;
  const text = typeof record.response_body === "string" ? record.response_body : JSON.stringify(record.response_body ?? null);
  return new Response(text, {
    status: record.response_status ?? 200,
    headers: { ...API_HEADERS, ...EXPOSE_HEADERS, ...headers, [REPLAYED_HEADER]: "true" },
  });
}

/** Options of the interactive transaction a write runs in. */
export const WRITE_TRANSACTION_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

/** What the keyed transaction decided. */
type Outcome =
  | { kind: "fresh"; result: WriteResult }
  | { kind: "replay"; record: StoredRecord }
  | { kind: "stored-error"; response: Response };

/**
 * Runs a write under an Idempotency-Key (or plainly when `key` is null: `runUnkeyed` when given,
 * else `run` in one transaction).
 * `run` receives the transaction client and must do every write (business rows and outbox rows)
 * through it; its result becomes the response and, with a key, is stored in the same transaction.
 * With a key, a connection lost during the transaction is retried once (safe: the record is
 * written in that same transaction, so a write that did commit is replayed, not repeated).
 * @returns the response (fresh, replayed, or a stored business error).
 * @throws ApiError 409 IDEMPOTENCY_KEY_IN_USE / 422 MISMATCHED_IDEMPOTENCY_BODY; rethrows errors of
 *   `run` that are not stored (nothing is stored and the key stays usable).
 */
export async function runIdempotent(opts: {
  actor: Actor;
  key: string | null;
  /** `requestFingerprint` of the request, called only when there is a key. */
  fingerprint: () => string;
  run: (tx: Tx) => Promise<WriteResult>;
  /** Without a key: runs instead of `run` in a new transaction (the write opens its own when it needs one). */
  runUnkeyed?: () => Promise<WriteResult>;
}): Promise<Response> {
  const { actor, key, fingerprint, run, runUnkeyed } = opts;
  if (key === null) {
    const result = runUnkeyed ? await runUnkeyed() : await transaction((tx) => run(tx), WRITE_TRANSACTION_OPTIONS);
    return json(result.body, result.status, { ...EXPOSE_HEADERS, ...result.headers });
  }
  const print = fingerprint();
  const outcome = await retryOnceIfUnavailable(() => runKeyed(actor, key, print, run));
  if (outcome.kind === "replay") return replay(outcome.record);
  if (outcome.kind === "stored-error") return outcome.response;
  const { result } = outcome;
  return json(result.body, result.status, { ...EXPOSE_HEADERS, ...result.headers });
}

/**
 * One transaction: take the key's advisory lock (busy → 409), look at the stored record (replay,
 * mismatch, or expired/unfinished → replaced), run the write behind a savepoint, store the
 * response (or a deterministic business error after rolling the write back to the savepoint).
 */
async function runKeyed(actor: Actor, key: string, fingerprint: string, run: (tx: Tx) => Promise<WriteResult>): Promise<Outcome> {
  const lockId = idempotencyLockId(actor, key);
  return transaction(async (tx) => {
    const [{ locked }] = await tx.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(${lockId}::bigint) AS locked`;
    if (!locked) throw busyError();
    const now = new Date();
    const existing = await tx.idempotencyRecord.findUnique({
      where: { team_id_user_id_key: { team_id: actor.teamId, user_id: actor.userId, key } },
      select: { id: true, fingerprint: true, response_status: true, response_body: true, response_headers: true, expires_at: true },
    });
    if (existing && existing.expires_at.getTime() > now.getTime() && existing.response_status !== null) {
      if (existing.fingerprint !== fingerprint) {
        throw new ApiError(422, "MISMATCHED_IDEMPOTENCY_BODY", "This Idempotency-Key was already used with a different request");
      }
      return { kind: "replay", record: existing };
    }
    // Expired, or unfinished (left by an older version that claimed keys before running): we hold
    // the lock, so nobody runs it now; replace it.
    if (existing) await tx.idempotencyRecord.delete({ where: { id: existing.id } });

    await tx.$executeRaw`SAVEPOINT idempotent_write`;
    let outcome: Outcome;
    let stored: { status: number; body: string; headers: Record<string, string> };
    try {
      const result = await run(tx);
      outcome = { kind: "fresh", result };
      stored = { status: result.status, body: JSON.stringify(result.body ?? null), headers: result.headers ?? {} };
    } catch (err) {
      if (!(err instanceof DomainError && STORED_ERROR_CODES.has(err.code))) throw err;
      await tx.$executeRaw`ROLLBACK TO SAVEPOINT idempotent_write`;
      const response = toErrorResponse("v2", err);
      outcome = { kind: "stored-error", response };
      stored = { status: response.status, body: await response.clone().text(), headers: {} };
    }
    await tx.idempotencyRecord.create({
      data: {
        team_id: actor.teamId,
        user_id: actor.userId,
        key,
        fingerprint,
        response_status: stored.status,
        response_body: stored.body,
        response_headers: stored.headers,
        created_at: now,
        completed_at: new Date(),
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_HOURS * 3600 * 1000),
      },
    });
    return outcome;
  }, WRITE_TRANSACTION_OPTIONS);
}

/** `Idempotency-Key` of the v2 writes (lib/api/idempotency.ts `parseIdempotencyKey`). */
export const idempotencyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(257)
    .optional()
    .meta({
      description:
        "Optional key for safe retries: 1–255 visible ASCII characters, bare or quoted (clients send a UUID v4). " +
        "Same key and body within 24 h: the stored response is replayed with `Idempotent-Replayed: true`; " +
        "same key, other body: 422 MISMATCHED_IDEMPOTENCY_BODY; while the first request runs: 409 IDEMPOTENCY_KEY_IN_USE.",
      example: "6f1c2f7e-3b0a-4d43-9b7e-2f0b8a7c9d11",
    }),
});
