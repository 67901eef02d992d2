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
 * - While the first request runs, its record is locked for IDEMPOTENCY_LOCK_SECONDS (60 s): a
 *   duplicate gets 409 IDEMPOTENCY_KEY_IN_USE with `Retry-After` (seconds). A lock older than that
 *   (a crashed request) is taken over by the next request with that key.
 * - The claim is an `INSERT … ON CONFLICT (team_id, user_id, key) DO NOTHING` committed on its own,
 *   so concurrent duplicates on any app instance see it at once; no in-memory state. The business
 *   writes, their outbox rows and the stored response then commit in ONE transaction that first
 *   locks the record row (`FOR UPDATE`) and checks the lock is still ours. If that transaction
 *   rolls back, the record is deleted (key released) and a retry runs again.
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
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError, InvalidParameterError } from "@/lib/domain/errors";

/** Seconds a running request holds its key before another request may take it over. */
export const IDEMPOTENCY_LOCK_SECONDS = 60;
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
  locked_until: Date | null;
  response_status: number | null;
  response_body: unknown;
  response_headers: unknown;
  expires_at: Date;
};

type Claim =
  | { kind: "claimed"; id: number; token: Date }
  | { kind: "replay"; record: StoredRecord }
  | { kind: "mismatch" }
  | { kind: "busy" };

/** The lock of a record was taken over while we ran (we ran longer than the lock lasts). */
class LockLostError extends Error {}

/**
 * Claims `key` for (team, user) or reports why it cannot be claimed. Race-free across instances:
 * the unique (team_id, user_id, key) decides the INSERT; a stale lock is taken over with a
 * compare-and-set on `locked_until`.
 */
async function claimKey(actor: Actor, key: string, fingerprint: string): Promise<Claim> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = new Date();
    const token = new Date(now.getTime() + IDEMPOTENCY_LOCK_SECONDS * 1000);
    const expires = new Date(now.getTime() + IDEMPOTENCY_TTL_HOURS * 3600 * 1000);
    const inserted = await db.$queryRaw<Array<{ id: number }>>`
      INSERT INTO idempotency_records (team_id, user_id, key, fingerprint, locked_until, created_at, expires_at)
      VALUES (${actor.teamId}, ${actor.userId}, ${key}, ${fingerprint}, ${token}, ${now}, ${expires})
      ON CONFLICT (team_id, user_id, key) DO NOTHING
      RETURNING id`;
    if (inserted.length) return { kind: "claimed", id: inserted[0].id, token };

    const existing = await db.idempotencyRecord.findUnique({
      where: { team_id_user_id_key: { team_id: actor.teamId, user_id: actor.userId, key } },
      select: {
        id: true,
        fingerprint: true,
        locked_until: true,
        response_status: true,
        response_body: true,
        response_headers: true,
        expires_at: true,
      },
    });
    if (!existing) continue; // released or expired-and-deleted in between: try the insert again
    if (existing.expires_at.getTime() <= now.getTime()) {
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, expires_at: { lte: now } } });
      continue;
    }
    if (existing.response_status !== null) {
      return existing.fingerprint === fingerprint ? { kind: "replay", record: existing } : { kind: "mismatch" };
    }
    if (existing.locked_until && existing.locked_until.getTime() > now.getTime()) {
      return existing.fingerprint === fingerprint ? { kind: "busy" } : { kind: "mismatch" };
    }
    // A stale lock: the request holding it crashed or ran out of time. Take it over (compare-and-set).
    const taken = await db.idempotencyRecord.updateMany({
      where: { id: existing.id, response_status: null, locked_until: existing.locked_until },
      data: { locked_until: token, fingerprint, created_at: now, expires_at: expires },
    });
    if (taken.count === 1) return { kind: "claimed", id: existing.id, token };
  }
  return { kind: "busy" };
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

/**
 * Runs a write under an Idempotency-Key (or plainly in one transaction when `key` is null).
 * `run` receives the transaction client and must do every write (business rows and outbox rows)
 * through it; its result becomes the response and, with a key, is stored in the same transaction.
 * @returns the response (fresh, replayed, or a stored business error).
 * @throws ApiError 409 IDEMPOTENCY_KEY_IN_USE / 422 MISMATCHED_IDEMPOTENCY_BODY; rethrows errors of
 *   `run` that are not stored (the key is released first).
 */
export async function runIdempotent(opts: {
  actor: Actor;
  key: string | null;
  fingerprint: string;
  run: (tx: Tx) => Promise<WriteResult>;
}): Promise<Response> {
  const { actor, key, fingerprint, run } = opts;
  if (key === null) {
    const result = await db.$transaction((tx) => run(tx), WRITE_TRANSACTION_OPTIONS);
    return json(result.body, result.status, { ...EXPOSE_HEADERS, ...result.headers });
  }

  const claim = await claimKey(actor, key, fingerprint);
  if (claim.kind === "replay") return replay(claim.record);
  if (claim.kind === "mismatch") {
    throw new ApiError(422, "MISMATCHED_IDEMPOTENCY_BODY", "This Idempotency-Key was already used with a different request");
  }
  if (claim.kind === "busy") throw busyError();

  const { id, token } = claim;
  try {
    const result = await db.$transaction(async (tx) => {
      const own = await tx.$queryRaw<Array<{ locked_until: Date | null }>>`
        SELECT locked_until FROM idempotency_records WHERE id = ${id} AND response_status IS NULL FOR UPDATE`;
      if (!own.length || own[0].locked_until?.getTime() !== token.getTime()) throw new LockLostError();
      const r = await run(tx);
      await tx.idempotencyRecord.update({
        where: { id },
        data: {
          response_status: r.status,
          response_body: JSON.stringify(r.body ?? null),
          response_headers: r.headers ?? {},
          completed_at: new Date(),
          locked_until: null,
        },
      });
      return r;
    }, WRITE_TRANSACTION_OPTIONS);
    return json(result.body, result.status, { ...EXPOSE_HEADERS, ...result.headers });
  } catch (err) {
    if (err instanceof LockLostError) throw busyError();
    if (err instanceof DomainError && STORED_ERROR_CODES.has(err.code)) {
      const response = toErrorResponse("v2", err);
      const body = await response.clone().text();
      await db.idempotencyRecord.updateMany({
        where: { id, locked_until: token, response_status: null },
        data: { response_status: response.status, response_body: body, response_headers: {}, completed_at: new Date(), locked_until: null },
      });
      return response;
    }
    await db.idempotencyRecord.deleteMany({ where: { id, locked_until: token, response_status: null } }).catch(() => {});
    throw err;
  }
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
