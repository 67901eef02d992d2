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
import { DATE_RANGE_TEXT, isDateInRange, isDateOnly, parseDateValue, parseWith } from "@/lib/api/query";
import { DAY_NAMES, MAX_DB_ID, MAX_QUESTIONS } from "@/lib/domain/constants";
import { InvalidParameterError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";
import type { UserRef } from "@/lib/domain/members";
import type { ReportSearchFilters } from "@/lib/domain/reports";
import type { StandupConfig, StandupQuestionConfig } from "@/lib/domain/standup-config";

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
const zUserRefs = z
  .array(z.union([zUserRef, z.object({ id: zUserRef }).transform((u) => u.id)]))
  .max(LIMITS.users, `must name at most ${LIMITS.users} users`)
  .nullish();

/** Minutes; null and -1 both mean "no automatic asking" (→ null). */
const zWaitTime = z.union([z.number(), z.string(), z.null()]).transform((value, ctx): number | null => {
  if (value === null || value === "") return null;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < -1 || n > 1440) {
    ctx.addIssue({ code: "custom", message: "must be a whole number of minutes (0..1440), -1 or null" });
    return z.NEVER;
  }
  return n === -1 ? null : n;
});

const zText = (label: string, max = 200) =>
  z
    .string({ message: `${label} must be a string` })
    .transform((s) => s.trim())
    .pipe(z.string().min(1, `${label} must not be empty`).max(max, `${label} is too long (max ${max})`));

/** `days`: three-letter day names, case-insensitive, normalised to "Mon".."Sun" (a CSV string is accepted too). */
const zDays = z.union([z.array(z.string()), z.string()]).transform((value, ctx) => {
  const parts = (Array.isArray(value) ? value : value.split(",")).map((d) => d.trim()).filter(Boolean);
  const out: string[] = [];
  for (const part of parts) {
    const day = DAY_NAMES.find((d) => d.toLowerCase() === part.slice(0, 3).toLowerCase());
    if (!day || !(part.length === 3 || isFullDayName(part))) {
      ctx.addIssue({ code: "custom", message: `unknown day "${part}" (use Mon, Tue, Wed, Thu, Fri, Sat, Sun)` });
      return z.NEVER;
    }
    if (!out.includes(day)) out.push(day);
  }
  return out;
});

function isFullDayName(part: string): boolean {
  return ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].includes(part.toLowerCase());
}

/** `time` as HH:MM:SS, HH:MM or HHMM (a number like 930 too); HHMM is rewritten to HH:MM. */
const zTime = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === "number" ? String(v).padStart(4, "0") : v.trim()))
  .pipe(z.string().regex(/^(\d{1,2}:\d{2}(:\d{2})?|\d{4})$/, "must be HH:MM:SS, HH:MM or HHMM"))
  .transform((v) => (/^\d{4}$/.test(v) ? `${v.slice(0, 2)}:${v.slice(2)}` : v));

/** A v1 question: `{question: "..."}` (spec), also `{text: "..."}` or a plain string; optional choices. */
const zQuestionText = z.string().max(LIMITS.questionText, `must be at most ${LIMITS.questionText} characters`);
const zChoiceList = z
  .array(z.string().max(LIMITS.choiceText, `must be at most ${LIMITS.choiceText} characters`))
  .max(LIMITS.choices, `must have at most ${LIMITS.choices} choices`)
  .nullish();
const zQuestion = z.union([
  zQuestionText.transform((text) => ({ text })),
  z
    .object({
      question: zQuestionText.optional(),
      text: zQuestionText.optional(),
      answer_choices: zChoiceList,
      choices: zChoiceList,
    })
    .transform((q) => ({ text: q.question ?? q.text ?? "", choices: q.answer_choices ?? q.choices ?? undefined })),
]);
// MAX_QUESTIONS: the limit PATCH/PUT/duplicate already hit in lib/domain/standup-config.ts,
// applied here so POST /v1/standups/ (the shared `createStandup`, which has none) answers the same 400.

const zQuestions = z
  .array(zQuestion)
  .max(MAX_QUESTIONS, `at most ${MAX_QUESTIONS} questions`)
  .transform((qs, ctx) => {
    const out: StandupQuestionInput[] = [];
    for (const [i, q] of qs.entries()) {
      const text = q.text.trim();
      if (!text) {
        ctx.addIssue({ code: "custom", message: `question ${i + 1} has no text`, path: [i, "question"] });
        return z.NEVER;
      }
      const choices = "choices" in q && q.choices?.length ? q.choices.map((c) => c.trim()).filter(Boolean) : undefined;
      out.push(choices?.length ? { text, choices } : { text });
    }
    // An empty list counts as "not given" (create/PUT then use the default questions).
    return out.length ? out : undefined;
  })
  .nullish();

export type StandupQuestionInput = StandupQuestionConfig;

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

/** The v1 standup configuration: the domain's `StandupConfig` (every field optional: PATCH semantics). */
export type V1StandupInput = StandupConfig;

const standupShape = {
  name: zText("name"),
  channel: zText("channel", 100),
  time: zTime,
  timezone: zText("timezone", 64),
  wait_time: zWaitTime,
  days: zDays,
  questions: zQuestions,
  users: zUserRefs,
  user_ids: zUserRefs,
  sync_channel_members: zV1Bool,
  sync_channel: z.union([z.string().max(LIMITS.name, `must be at most ${LIMITS.name} characters`), z.null()]),
  personalised: zV1Bool,
};

export const zStandupPartial = z.object({
  name: standupShape.name.optional(),
  channel: standupShape.channel.optional(),
  time: standupShape.time.optional(),
  timezone: standupShape.timezone.optional(),
  wait_time: standupShape.wait_time.optional(),
  days: standupShape.days.optional(),
  questions: standupShape.questions,
  users: standupShape.users,
  user_ids: standupShape.user_ids,
  sync_channel_members: standupShape.sync_channel_members.optional(),
  sync_channel: standupShape.sync_channel.optional(),
  personalised: standupShape.personalised.optional(),
});

type StandupPartial = z.output<typeof zStandupPartial>;

function toStandupInput(raw: Record<string, unknown>, p: StandupPartial): V1StandupInput {
  const out: V1StandupInput = {};
  if (p.name !== undefined) out.name = p.name;
  if (p.channel !== undefined) out.channel = channelRef("channel", p.channel);
  if (p.time !== undefined) out.time = p.time;
  if (p.timezone !== undefined) out.timezone = p.timezone;
  if ("wait_time" in raw && p.wait_time !== undefined) out.waitTime = p.wait_time;
  if (p.days !== undefined) {
    if (p.days.length === 0) throw new InvalidParameterError("days: must name at least one day");
    out.days = p.days;
  }
  if (p.questions) out.questions = p.questions;
  const users = p.users ?? p.user_ids;
  if (users) out.users = users;
  if (p.sync_channel_members !== undefined) out.syncChannelMembers = p.sync_channel_members;
  if (p.sync_channel !== undefined)
    out.syncChannel = p.sync_channel === null || p.sync_channel.trim() === "" ? null : channelRef("sync_channel", p.sync_channel);
  if (p.personalised !== undefined) out.personalised = p.personalised;
  return out;
}

/** A channel chat id or name with an optional leading '#'; "#" alone is a 400, never "no channel". */
function channelRef(label: string, value: string): string {
  const ref = value.trim().replace(/^#/, "").trim();
  if (!ref) throw new InvalidParameterError(`${label}: must name a channel`);
  return ref;
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new InvalidParameterError("Request body must be a JSON object");
  return body as Record<string, unknown>;
}

function requireFields(input: V1StandupInput, fields: Array<keyof V1StandupInput>, names: Record<string, string>): void {
  const missing = fields.filter((f) => input[f] === undefined);
  if (missing.length) throw new InvalidParameterError(`${missing.map((f) => names[f] ?? f).join(", ")}: required`);
}

const FIELD_NAMES: Record<string, string> = {
  name: "name",
  channel: "channel",
  time: "time",
  timezone: "timezone",
  waitTime: "wait_time",
  days: "days",
  questions: "questions",
  users: "users",
  syncChannelMembers: "sync_channel_members",
  personalised: "personalised",
};

/**
 * PATCH /v1/standups/{id}: only the properties present are changed. The spec marks `wait_time`,
 * `sync_channel_members` and `personalised` "required" but also says only present properties
 * change; clients send partial bodies, so nothing is required here (the domain checks that
 * `sync_channel_members: false` comes with members).
 */
export function parseV1StandupPatchBody(body: unknown): V1StandupInput {
  const raw = asObject(body);
  return toStandupInput(raw, parseWith(zStandupPartial, raw));
}

/**
 * POST /v1/standups/ (create). Required: name, channel, time, timezone, days, and the member
 * source: `users` or `sync_channel_members: true`. `personalised` defaults to false and
 * `sync_channel_members` to "no users given" when absent (clients omit them); `questions`
 * default to three standard questions; `wait_time` defaults to null.
 */
export function parseV1StandupCreateBody(body: unknown): V1StandupInput {
  const raw = asObject(body);
  const input = toStandupInput(raw, parseWith(zStandupPartial, raw));
  requireFields(input, ["name", "channel", "time", "timezone", "days"], FIELD_NAMES);
  input.syncChannelMembers ??= !input.users?.length;
  input.personalised ??= false;
  return input;
}

/**
 * PUT /v1/standups/{id} (replace). Required: channel, name, time, timezone, days and the member
 * source (`users`, or `sync_channel_members: true`); `wait_time` may be null/-1 or absent (→ no
 * automatic asking); `questions` default to three standard questions when omitted.
 */
export function parseV1StandupPutBody(body: unknown): V1StandupInput {
  return parseV1StandupCreateBody(body);
}

/** POST /v1/standups/{id}/duplicate: every given field overrides the copy; none is required. */
export function parseV1StandupDuplicateBody(body: unknown): V1StandupInput {
  return parseV1StandupPatchBody(body);
}

/** Body of POST /v1/standups/{id}/start: who to ask; both empty → everyone. */
export type V1StandupStartBody = { users: UserRef[]; emails: string[] };

export const zStart = z.object({
  users: zUserRefs,
  user_ids: zUserRefs,
  emails: z.array(z.string().trim().min(3).max(320)).max(LIMITS.users, `must name at most ${LIMITS.users} users`).nullish(),
});

/** Parses the start body: absent, `{}`, `users`, `user_ids`, `emails`, or those keys with null. */
export function parseV1StandupStartBody(body: unknown): V1StandupStartBody {
  if (body === null || body === undefined) return { users: [], emails: [] };
  const parsed = parseWith(zStart, asObject(body));
  return { users: [...(parsed.users ?? []), ...(parsed.user_ids ?? [])], emails: parsed.emails ?? [] };
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
