/**
 * Request schemas of the legacy (v1) endpoints (spec §4.3), parsed tolerantly as existing clients
 * send them (compatibility.md "Query parsing (v1)" and "Bodies (v1)"):
 * - numbers may arrive as numeric strings, booleans as true/false/1/0 (strings or JSON values);
 * - `question_ids` as CSV, as the repeated key, or as `question_ids[]`;
 * - `user_id` as a chat id (`U0123ABCD`) or the numeric user id, plus `user_ids` (several);
 * - `after` / `before` as Unix seconds, integer or float;
 * - user ids in bodies as numbers or strings.
 * Every parser throws InvalidParameterError (v1: 400 `{"error": "..."}`) through `parseWith`.
 * The output is version-neutral input for the domain layer.
 */
import { z } from "zod";
import { DATE_RANGE_TEXT, isDateInRange, isDateOnly, parseDateValue, parseWith, zDate } from "@/lib/api/query";
import { MAX_DB_ID } from "@/lib/domain/constants";
import { InvalidParameterError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";
import type { UserRef } from "@/lib/domain/members";
import type { ReportSearchFilters } from "@/lib/domain/reports";

// ---------------------------------------------------------------------------------------------
// building blocks

/** true/false/1/0 as JSON booleans, numbers or strings. */
export const zV1Bool = z.union([z.boolean(), z.number(), z.string()]).transform((value, ctx) => {
  if (typeof value === "boolean") return value;
  const v = String(value).trim().toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  ctx.addIssue({ code: "custom", message: "must be a boolean (true/false/1/0)" });
  return z.NEVER;
});

/** A positive integer id as a JSON number or a numeric string. */
export const zV1Id = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const v = typeof value === "number" ? value : /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(v) || v < 1 || v > MAX_DB_ID) {
    ctx.addIssue({ code: "custom", message: "must be a positive integer id" });
    return z.NEVER;
  }
  return v;
});

/**
 * A user reference: a positive integer up to 2147483647 (number or numeric string → number) or a
 * chat id string. Larger numbers are a 400, never a database error.
 */
export const zUserRef = z.union([z.number(), z.string()]).transform((value, ctx): UserRef => {
  if (typeof value === "number") {
    if (Number.isInteger(value) && value > 0 && value <= MAX_DB_ID) return value;
    ctx.addIssue({ code: "custom", message: "must be a user id" });
    return z.NEVER;
  }
  const v = value.trim();
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (n > 0 && n <= MAX_DB_ID) return n;
    ctx.addIssue({ code: "custom", message: `invalid user id "${value}"` });
    return z.NEVER;
  }
  if (/^[A-Za-z0-9_.-]{1,64}$/.test(v)) return v;
  ctx.addIssue({ code: "custom", message: `invalid user id "${value}"` });
  return z.NEVER;
});

/**
 * An array of user references; null or absent → undefined. Entries may also be user objects as
 * GET responses carry them (`{"id": "U0123ABCD", ...}`), so clients can send a list back.
 */
export const zUserRefs = z
  .array(z.union([zUserRef, z.object({ id: zUserRef }).transform((u) => u.id)]))
  .max(LIMITS.users, `must name at most ${LIMITS.users} users`)
  .nullish();

export const zText = (label: string, max = 200) =>
  z
    .string({ message: `${label} must be a string` })
    .transform((s) => s.trim())
    .pipe(z.string().min(1, `${label} must not be empty`).max(max, `${label} is too long (max ${max})`));

/** A channel chat id or name with an optional leading '#'; "#" alone is a 400, never "no channel". */
export function channelRef(label: string, value: string): string {
  const ref = value.trim().replace(/^#/, "").trim();
  if (!ref) throw new InvalidParameterError(`${label}: must name a channel`);
  return ref;
}

// ---------------------------------------------------------------------------------------------
// query strings

/** parseWith for one query value, naming `label` in the error. */
function parseValue<S extends z.ZodType>(schema: S, value: unknown, label: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new InvalidParameterError(`${label}: ${r.error.issues[0]?.message ?? "invalid value"}`);
}

/**
 * All values of a query key — `key` (repeated or not), `key[]`, and the indexed `key[0]`, `key[1]`
 * some HTTP libraries write — each split on commas; blanks dropped.
 */
export function multiValues(url: URL, key: string): string[] {
  const values: string[] = [];
  for (const [k, v] of url.searchParams) {
    if (k === key || (k.startsWith(`${key}[`) && /^\[\d*\]$/.test(k.slice(key.length)))) values.push(v);
  }
  return values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Unix seconds (integer or float) → Date. */
function unixSeconds(label: string, value: string | null): Date | undefined {
  if (value === null || value.trim() === "") return undefined;
  const v = value.trim();
  if (!/^-?\d+(\.\d+)?$/.test(v)) throw new InvalidParameterError(`${label}: must be a Unix timestamp in seconds`);
  const ms = Math.round(Number(v) * 1000);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15 || !isDateInRange(new Date(ms)))
    throw new InvalidParameterError(`${label}: out of range (must be ${DATE_RANGE_TEXT})`);
  return new Date(ms);
}

/**
 * Parsed query of GET /v1/reports/: the domain filters of `searchReports` (`userRefs` combines
 * user_id and user_ids) plus the `html` rendering flag.
 */
export type V1ReportListQuery = ReportSearchFilters & { html: boolean };

/** Default and maximum page size of GET /v1/reports/ (spec §8). */
export const V1_REPORT_LIMIT = { default: 30, max: 100 } as const;

/**
 * Parses GET /v1/reports/ (spec §4.3). `limit` must be an integer 1..100 (default 30; more is
 * a 400). Unknown parameters are ignored.
 */
export function parseV1ReportListQuery(url: URL): V1ReportListQuery {
  const sp = url.searchParams;
  const limitRaw = sp.get("limit");
  let limit: number = V1_REPORT_LIMIT.default;
  if (limitRaw !== null && limitRaw.trim() !== "") {
    const n = Number(limitRaw.trim());
    if (!Number.isInteger(n) || n < 1 || n > V1_REPORT_LIMIT.max)
      throw new InvalidParameterError(`limit: must be an integer from 1 to ${V1_REPORT_LIMIT.max}`);
    limit = n;
  }
  const standupRaw = sp.get("standup_id");
  const standupId = standupRaw !== null && standupRaw.trim() !== "" ? parseValue(zV1Id, standupRaw, "standup_id") : undefined;
  const userValues = [...multiValues(url, "user_id"), ...multiValues(url, "user_ids")];
  const userRefs = userValues.length ? userValues.map((v, i) => parseValue(zUserRef, v, `user_id[${i}]`)) : undefined;
  const questionValues = multiValues(url, "question_ids");
  const questionIds = questionValues.length ? [...new Set(questionValues.map((v) => parseValue(zV1Id, v, "question_ids")))] : undefined;
  const after = unixSeconds("after", sp.get("after"));
  const before = unixSeconds("before", sp.get("before"));
  const htmlRaw = sp.get("html");
  const html = htmlRaw !== null && htmlRaw.trim() !== "" ? parseValue(zV1Bool, htmlRaw, "html") : false;
  return { limit, standupId, userRefs, after, before, questionIds, html };
}

/** GET /v1/polls/{id}/votes: optional `from` / `to` (ISO 8601 or YYYY-MM-DD). */
export type V1PollVotesQuery = { from?: Date; to?: Date };

/**
 * Parses GET /v1/polls/{id}/votes. `from` is inclusive; `to` is inclusive of its whole day when
 * given as YYYY-MM-DD (clients send calendar dates), otherwise exclusive at the given instant.
 */
export function parseV1PollVotesQuery(url: URL): V1PollVotesQuery {
  const read = (key: string): { date: Date; dateOnly: boolean } | undefined => {
    const raw = url.searchParams.get(key);
    if (raw === null || raw.trim() === "") return undefined;
    const date = parseDateValue(raw);
    if (!date) throw new InvalidParameterError(`${key}: invalid date "${raw}" (use ISO 8601 or YYYY-MM-DD)`);
    return { date, dateOnly: isDateOnly(raw) };
  };
  const from = read("from");
  const to = read("to");
  const toDate = to ? (to.dateOnly ? new Date(to.date.getTime() + 86_400_000) : to.date) : undefined;
  if (from && toDate && toDate.getTime() <= from.date.getTime()) throw new InvalidParameterError("to: must be after from");
  return { from: from?.date, to: toDate };
}

// ---------------------------------------------------------------------------------------------
// bodies

/** Body of POST /v1/reports/. */
export type V1ReportCreateBody = { standupId: number; answers: Array<{ questionId: number; text: string }> };

const zAnswerString = z.string().max(LIMITS.answerText, `must be at most ${LIMITS.answerText} characters`);
const zAnswerValue = z.union([
  zAnswerString,
  z.number().transform(String),
  z.object({ text: z.union([zAnswerString, z.number().transform(String)]) }).transform((a) => a.text),
  z.object({ answer: z.union([zAnswerString, z.number().transform(String)]) }).transform((a) => a.answer),
]);

export const zReportCreate = z.object({
  standup_id: zV1Id,
  answers: z.record(z.string(), zAnswerValue, { message: "must be an object mapping question ids to answers" }),
});

/**
 * Parses POST /v1/reports/: `standup_id` number or numeric string; `answers` an object keyed by
 * question id strings, values `{"text": "..."}` or a plain string (compatibility.md).
 */
export function parseV1ReportCreateBody(body: unknown): V1ReportCreateBody {
  const raw = asObject(body);
  for (const key of ["standup_id", "answers"]) {
    if (raw[key] === undefined || raw[key] === null) throw new InvalidParameterError(`${key}: required`);
  }
  const parsed = parseWith(zReportCreate, raw);
  const answers = Object.entries(parsed.answers).map(([key, text]) => {
    if (!/^\d{1,10}$/.test(key.trim())) throw new InvalidParameterError(`answers: "${key}" is not a question id`);
    return { questionId: Number(key.trim()), text };
  });
  if (answers.length === 0) throw new InvalidParameterError("answers: must not be empty");
  return { standupId: parsed.standup_id, answers };
}

export function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new InvalidParameterError("Request body must be a JSON object");
  return body as Record<string, unknown>;
}

/** Body of POST /v1/polls (spec §4.3: all fields required). */
export type V1PollCreateBody = { name: string; channel: string; question: string; choices: string[]; duration: number };

export const zPollCreate = z.object({
  name: zText("name"),
  channel: zText("channel", 100),
  question: zText("question", 500),
  choices: z
    .array(zText("choice", 200), { message: "choices: must be an array of strings" })
    .min(2, "must have at least 2 choices")
    .max(25, "must have at most 25 choices"),
  duration: z
    .union([z.number(), z.string()])
    .transform((v) => (typeof v === "number" ? v : Number(v.trim() || Number.NaN)))
    .pipe(
      z
        .number({ message: "must be a number of minutes" })
        .int("must be a whole number of minutes")
        .min(1, "must be at least 1 minute")
        .max(525_600, "must be at most one year"),
    ),
});

/** Parses POST /v1/polls; `channel` may carry a leading '#'. */
export function parseV1PollCreateBody(body: unknown): V1PollCreateBody {
  const p = parseWith(zPollCreate, asObject(body));
  return { ...p, channel: channelRef("channel", p.channel) };
}

/** Unix seconds, integer or float (compatibility.md). */
const zUnixSeconds = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .meta({ example: "1704067200" });

/** Query of GET /v1/reports/ (spec §4.3, compatibility.md "Query parsing (v1)"), as `parseV1ReportListQuery` reads it. */
export const v1ReportListQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(V1_REPORT_LIMIT.max)
    .optional()
    .meta({ description: `Page size, default ${V1_REPORT_LIMIT.default}, maximum ${V1_REPORT_LIMIT.max}.` }),
  standup_id: zV1Id.optional(),
  user_id: zUserRef
    .optional()
    .meta({ description: "Author: chat-style id (U0123ABCD) or numeric user id; may repeat or be comma-separated." }),
  user_ids: zUserRef.optional().meta({ description: "Several authors (same forms as `user_id`)." }),
  after: zUnixSeconds.optional().meta({ description: "Submitted at or after (Unix seconds, integer or float)." }),
  before: zUnixSeconds.optional().meta({ description: "Submitted before (Unix seconds, integer or float)." }),
  question_ids: z
    .string()
    .optional()
    .meta({ description: "Question ids to keep: comma-separated, the key repeated, or `question_ids[]`." }),
  html: zV1Bool.optional().meta({ description: "`true`: answers rendered to safe HTML." }),
});

/** Query of GET /v1/polls/{id}/votes (`parseV1PollVotesQuery`). */
export const v1PollVotesQuery = z.object({
  from: zDate.optional().meta({ description: "Inclusive start, ISO 8601 or YYYY-MM-DD." }),
  to: zDate.optional().meta({ description: "End, ISO 8601 (exclusive) or YYYY-MM-DD (that whole day included)." }),
});
