/**
 * Opaque, self-contained v2 cursors (spec §4.1): the keyset position of the last item of a page,
 * bound to the filters that produced it and signed with HMAC-SHA256 so that a tampered cursor, a
 * garbage string or a cursor replayed with other filters is rejected with INVALID_PARAMETER.
 * No server-side state: any app instance sharing AUTH_SECRET can decode any cursor.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { InvalidParameterError } from "@/lib/domain/errors";
import { authSecret } from "@/lib/env";

/** A keyset position: scalar values of the sort key, e.g. [iso timestamp, id]. */
export type CursorPosition = Array<string | number | null>;

/**
 * JSON with object keys sorted at every level (arrays keep their order), `undefined` object
 * entries dropped (null elsewhere) and dates as ISO strings: equal values give equal text.
 * Used for cursor bindings here and for idempotency fingerprints (lib/api/idempotency.ts).
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function bindingHash(binding: unknown): string {
  return createHash("sha256").update(canonicalJson(binding)).digest("base64url").slice(0, 16);
}

function sign(payload: string): string {
  return createHmac("sha256", authSecret()).update(payload).digest("base64url").slice(0, 22);
}

/**
 * Encodes a position bound to `binding` (the endpoint name plus every filter that shapes the list,
 * not the page size). Output: `<base64url payload>.<signature>`.
 */
export function encodeCursor(position: CursorPosition, binding: unknown): string {
  const payload = Buffer.from(JSON.stringify({ p: position, b: bindingHash(binding) })).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

/**
 * Decodes a cursor produced by `encodeCursor` with the same binding.
 * @throws InvalidParameterError for garbage, a bad signature, or a cursor of other filters.
 */
export function decodeCursor(cursor: string, binding: unknown): CursorPosition {
  const bad = () => new InvalidParameterError("Invalid cursor: it must be replayed unchanged with the same filters that produced it");
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw bad();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
  let parsed: { p?: unknown; b?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed.p) || parsed.b !== bindingHash(binding)) throw bad();
  return parsed.p as CursorPosition;
}

/**
 * Decodes a cursor whose position is a calendar date "YYYY-MM-DD" and an id (the participation
 * and summary lists, date desc, id desc); no cursor gives undefined.
 * @throws InvalidParameterError as `decodeCursor`, or "Invalid cursor" when the position is not (date, integer id).
 */
export function decodeDateIdCursor(cursor: string | undefined, binding: unknown): { date: string; id: number } | undefined {
  if (!cursor) return undefined;
  const [date, id, ...extra] = decodeCursor(cursor, binding);
  if (typeof date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(date) || typeof id !== "number" || !Number.isInteger(id) || extra.length) {
    throw new InvalidParameterError("Invalid cursor");
  }
  return { date, id };
}
