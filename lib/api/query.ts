/**
 * Request parsing shared by every route: zod building blocks for query strings (dates as ISO 8601
 * or YYYY-MM-DD, limits, `include` lists, booleans), JSON bodies, path ids, and `parseWith`,
 * which turns any zod failure into INVALID_PARAMETER with a readable message (spec §4.1, §7).
 */
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { MAX_DB_ID } from "@/lib/domain/constants";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { limitSettings } from "@/lib/env";
import { BodyAbortedError, readBodyBytes } from "@/lib/http/body";

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Earliest instant any date parameter may name: year 1 and before (e.g. `0001-01-01T00:00:00+14:00`,
 * which is year 0 in UTC) are a 400, never a range error inside SQL or date arithmetic.
 */
export const MIN_DATE = new Date("0002-01-01T00:00:00Z");
/** Latest instant any date parameter may name. */
export const MAX_DATE = new Date("9999-12-31T23:59:59.999Z");
/** The accepted range, for error messages. */
export const DATE_RANGE_TEXT = "between 0002-01-01 and 9999-12-31";

/** True when `date` is a valid Date within MIN_DATE..MAX_DATE. */
export function isDateInRange(date: Date): boolean {
  const t = date.getTime();
  return Number.isFinite(t) && t >= MIN_DATE.getTime() && t <= MAX_DATE.getTime();
}

/**
 * Parses ISO 8601 (`2026-01-05T10:00:00Z`, with offset, or without: UTC) or `YYYY-MM-DD`
 * (UTC midnight). Returns null when invalid (including impossible dates like 2026-02-30) or
 * outside MIN_DATE..MAX_DATE (year 0001 with an offset would otherwise reach PostgreSQL as a
 * range error).
 */
export function parseDateValue(value: string): Date | null {
  const date = parseDateUnchecked(value);
  return date && isDateInRange(date) ? date : null;
}

function parseDateUnchecked(value: string): Date | null {
  const v = value.trim();
  const d = DATE_ONLY.exec(v);
  if (d) {
    const date = new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])));
    return date.getUTCFullYear() === Number(d[1]) && date.getUTCMonth() === Number(d[2]) - 1 && date.getUTCDate() === Number(d[3])
      ? date
      : null;
  }
  if (!ISO_DATETIME.test(v)) return null;
  const normalized = /(Z|[+-]\d{2}:?\d{2})$/i.test(v) ? v : `${v}Z`;
  const date = new Date(normalized.replace(" ", "T"));
  if (Number.isNaN(date.getTime())) return null;
  const [y, m, day] = v.slice(0, 10).split("-").map(Number);
  if (m < 1 || m > 12 || day < 1 || day > 31 || y < 1) return null;
  return date;
}

/** True when `value` (trimmed) is a plain calendar date `YYYY-MM-DD`, without a time part. */
export function isDateOnly(value: string): boolean {
  return DATE_ONLY.test(value.trim());
}

/** Query date: ISO 8601 or YYYY-MM-DD → Date. */
export const zDate = z.string().transform((value, ctx) => {
  const date = parseDateValue(value);
  if (!date) {
    ctx.addIssue({ code: "custom", message: `invalid date "${value}" (use ISO 8601 or YYYY-MM-DD, ${DATE_RANGE_TEXT})` });
    return z.NEVER;
  }
  return date;
});

/** Page size 1..100 with the endpoint's default (spec §8). */
export const zLimit = (defaultLimit: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be an integer from 1 to 100")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be an integer from 1 to 100").max(100, "must be an integer from 1 to 100"))
    .optional()
    .transform((v) => v ?? defaultLimit);

/** `true`/`false`/`1`/`0` (compatibility.md). */
export const zBoolString = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(["true", "false", "1", "0"], { message: "must be true or false" }))
  .transform((v) => v === "true" || v === "1");

/** Comma-separated subset of `allowed`; unknown values fail (spec §4.1 `include`, `state`). */
export function zCsvSet<const T extends string>(allowed: readonly T[], label: string) {
  return z.string().transform((value, ctx) => {
    const parts = value
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const unknown = parts.filter((p) => !allowed.includes(p as T));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `unknown ${label} value(s): ${unknown.join(", ")} (allowed: ${allowed.join(", ")})` });
      return z.NEVER;
    }
    return new Set(parts as T[]);
  });
}

/**
 * Single-valued query parameters as an object (first value wins).
 * @throws InvalidParameterError when a value contains a NUL character (PostgreSQL text cannot
 *   hold one, so it could never match anything and would otherwise fail inside the query).
 */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in out) continue;
    if (v.includes("\u0000")) throw new InvalidParameterError(`${k}: must not contain NUL characters`);
    out[k] = v;
  }
  return out;
}

/** Deepest nesting of arrays/objects accepted in a JSON body. */
export const MAX_JSON_DEPTH = 32;

/**
 * Checks a parsed JSON body without recursion: no string (value or key) may contain a NUL
 * character (PostgreSQL text cannot store it) and nesting may not exceed MAX_JSON_DEPTH.
 * @throws InvalidParameterError
 */
function checkJsonValue(root: unknown): void {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value === "string") {
      if (value.includes("\u0000")) throw new InvalidParameterError("Request body strings must not contain NUL characters");
    } else if (value !== null && typeof value === "object") {
      if (depth >= MAX_JSON_DEPTH) throw new InvalidParameterError(`Request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
      if (Array.isArray(value)) {
        for (const v of value) stack.push([v, depth + 1]);
      } else {
        for (const [k, v] of Object.entries(value)) {
          if (k.includes("\u0000")) throw new InvalidParameterError("Request body keys must not contain NUL characters");
          stack.push([v, depth + 1]);
        }
      }
    }
  }
}

/** Validates `input` with `schema`; @throws InvalidParameterError naming the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  throw new InvalidParameterError(`${where}${issue.message}`);
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, "PAYLOAD_TOO_LARGE", `Request body is larger than ${limit} bytes`);
}

/**
 * Reads the body as UTF-8 text, refusing more than `limit` bytes (API_BODY_LIMIT_BYTES, default
 * 1 MB): first on `Content-Length`, then by counting while streaming (chunked bodies, lying
 * headers), so an oversized body is never held in memory.
 * @throws ApiError 413 PAYLOAD_TOO_LARGE; InvalidParameterError when the client closed the
 *   connection before the body was complete
 */
export async function readBodyText(request: Request, limit = limitSettings().bodyLimitBytes): Promise<string> {
  let bytes: Buffer | null;
  try {
    bytes = await readBodyBytes(request, limit);
  } catch (err) {
    if (err instanceof BodyAbortedError) throw new InvalidParameterError(err.message);
    throw err;
  }
  if (!bytes) throw tooLarge(limit);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/**
 * Reads a JSON body (capped by `readBodyText`); an empty body gives `{}` when `allowEmpty`. The
 * Content-Type header is not checked (clients that omit it or send text/plain with a JSON body
 * are served).
 * @throws ApiError 413 for a body over the limit; InvalidParameterError for invalid JSON, NUL
 *   characters in strings, or nesting deeper than MAX_JSON_DEPTH.
 */
export async function readJson(request: Request, opts: { allowEmpty?: boolean } = {}): Promise<unknown> {
  const text = await readBodyText(request);
  if (!text.trim()) {
    if (opts.allowEmpty) return {};
    throw new InvalidParameterError("Request body must be a JSON object");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidParameterError("Request body is not valid JSON");
  }
  checkJsonValue(value);
  return value;
}

/** A numeric path id; anything else cannot name a resource, so it is NOT_FOUND. */
export function parseId(value: string | undefined, what = "Resource"): number {
  if (!value || !/^\d{1,9}$/.test(value)) throw new NotFoundError(what);
  const id = Number(value);
  if (id < 1 || id > MAX_DB_ID) throw new NotFoundError(what);
  return id;
}

/** A numeric path id (`parseId`: 1..2147483647; anything else is 404). */
const zPathId = (description: string) => z.number().int().min(1).max(MAX_DB_ID).meta({ description, example: 42 });

/**
 * One numeric id in a route's path: the `[param]` folder name, what it names (for NotFoundError)
 * and the schema the OpenAPI document shows. `apiPath` parses it with `parseId` for the handler.
 */
export type PathId = { param: string; what: string; schema: z.ZodObject };

/** Declares the path id `param` naming a `what` (e.g. "pollId", "Poll"). */
export function pathId(param: string, what: string): PathId {
  return { param, what, schema: z.object({ [param]: zPathId(`${what} id.`) }) };
}

export const standupIdPath = pathId("standupId", "Standup");
export const pollIdPath = pathId("pollId", "Poll");
export const reportIdPath = pathId("reportId", "Report");
export const v1IdPath = (what: string) => pathId("id", what);
