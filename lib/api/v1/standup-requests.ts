/**
 * Request bodies of the legacy (v1) standup endpoints (spec §4.3: POST /v1/standups/, PATCH/PUT
 * /v1/standups/{id}, POST …/duplicate, POST …/start), parsed tolerantly as existing clients send
 * them (compatibility.md "Bodies (v1)"): HHMM times, -1/null wait times, CSV or full day names,
 * `{question}`/`{text}`/plain-string questions, user ids as numbers, strings or user objects.
 * Every parser throws InvalidParameterError (v1: 400). The zod schemas double as the OpenAPI
 * request bodies (one source per shape). Building blocks shared with the other v1 bodies live in
 * lib/api/v1/requests.ts.
 */
import { z } from "zod";
import { parseWith } from "@/lib/api/query";
import { asObject, channelRef, zText, zUserRefs, zV1Bool } from "@/lib/api/v1/requests";
import { DAY_NAMES, MAX_QUESTIONS } from "@/lib/domain/constants";
import { InvalidParameterError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";
import type { UserRef } from "@/lib/domain/members";
import type { StandupConfig, StandupQuestionConfig } from "@/lib/domain/standup-config";

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

/** Fields `parseV1StandupCreateBody` / `parseV1StandupPutBody` require on top of `zStandupPartial` (the OpenAPI body of POST/PUT). */
export const v1StandupCreateBody = zStandupPartial.required({ name: true, channel: true, time: true, timezone: true, days: true });
