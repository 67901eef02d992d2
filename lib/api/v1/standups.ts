/**
 * Legacy (v1) standup serializer: spec §2.8 plus every extra field of compatibility.md
 * ("Standup", "Standup question"). Rows come from `standupSettingsSelect` (lib/domain/standups.ts).
 *
 * Decisions where the spec is silent:
 * - `time` is "HH:MM:SS" everywhere; `channel` / `sync_channel` are channel names (without '#'),
 *   null when the standup has none; `channel_ready` / `sync_channel_ready` tell whether that
 *   channel is set; `users` are v1 user objects of the active members with the chat-style string
 *   id (`"U0123ABCD"`, as `/v1/teams/` and spec §2.7 give it: existing clients parse it so),
 *   and `master` is the creator's id in the same chat-style string form (the spec does not type
 *   it; a widely used client reads it as a string, issue 43). v1 bodies accept either id form in
 *   `users` (lib/api/v1/users.ts).
 * - `wait_time`: null means no automatic asking on the read endpoints (default); the create,
 *   update, duplicate and delete responses pass `{ noWaitTime: -1 }` to render -1 instead.
 * - Question `label` is "other", `text_id` is the question id, `hasAnswers` whether any answer
 *   to that question exists.
 */
import { z } from "zod";
import { json } from "@/lib/api/errors";
import { readJson, v1IdPath, zBoolString } from "@/lib/api/query";
import { type ServedMethod, served } from "@/lib/api/route";
import { serializeUserV1, teamUserV1Schema } from "@/lib/api/v1/users";
import { zChatUserId, zCount, zId } from "@/lib/api/wire";
import type { Actor } from "@/lib/domain/actor";
import { v1QuestionType } from "@/lib/domain/question-types";
import { listStandupSettings, type StandupSettingsView } from "@/lib/domain/standups";
import type { V1Errors } from "@/lib/openapi/operation";

/**
 * Query of GET /v1/standups/ and /v1/me/standups: `admin` is true/false/1/0; a bare `?admin`
 * (empty value) counts as true. Honoured only for team admins (lib/domain/access.ts).
 */
export const v1StandupListQuerySchema = z.object({
  admin: z
    .union([z.literal("").transform(() => true), zBoolString])
    .optional()
    .transform((v) => v ?? false),
});

/** v1 standup question (compatibility.md "Standup question"). */
export const standupQuestionV1Schema = z
  .strictObject({
    id: zId,
    color: z.string().meta({ example: "EEEEEE" }),
    text: z.string(),
    schedule: z.null(),
    answer_type: z.string(),
    answer_choices: z.array(z.string()),
    hasAnswers: z.boolean(),
    is_random: z.literal(false),
    random_texts: z.array(z.string()),
    prefilled_by: z.null(),
    text_id: zId,
    preconditions: z.array(z.unknown()),
    label: z.string(),
    flavor: z.string(),
  })
  .meta({ id: "StandupQuestionV1" });

/** v1 standup (spec §2.8 + compatibility.md "Standup"). */
export const standupV1Schema = z
  .strictObject({
    id: zId,
    name: z.string(),
    time: z.string().meta({ description: "Start time, HH:MM:SS.", example: "09:00:00" }),
    wait_time: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Minutes after login before asking. Reads: null = no automatic asking; create/update/duplicate/delete: -1." }),
    timezone: z.string(),
    days: z.array(z.string()),
    channel: z.string().nullable().meta({ description: "Channel where updates are posted (never null for a broadcasting standup)." }),
    channel_ready: z.boolean(),
    questions: z.array(standupQuestionV1Schema),
    users: z.array(teamUserV1Schema).meta({ description: "Active members; `id` is the chat-style string user id, as in GET /v1/teams/." }),
    users_total: zCount,
    webhooks: z.array(z.unknown()),
    master: zChatUserId.meta({ description: "Creator's chat-style string user id, the same form as `users[].id`." }),
    sync_channel_members: z.boolean().meta({ description: "Participants are synced with channel members." }),
    sync_channel_ready: z.boolean(),
    sync_channel: z.string().nullable(),
    confidential: z.boolean(),
    anonymous: z.boolean(),
    draft: z.boolean(),
    paused: z.boolean(),
    personalised: z.boolean(),
  })
  .meta({ id: "StandupV1" });

export type V1StandupQuestion = z.output<typeof standupQuestionV1Schema>;
export type V1Standup = z.output<typeof standupV1Schema>;

/** POST /v1/standups/{id}/start (compatibility.md): the JSON string "ok". */
export const startedV1Schema = z.literal("ok");

export type SerializeStandupV1Options = {
  /** How "no automatic asking" is rendered: null on reads (default), -1 on create/update/duplicate/delete responses. */
  noWaitTime?: null | -1;
};

/** Normalizes a stored time to "HH:MM:SS" ("9:05" → "09:05:00"). */
export function formatTimeV1(time: string): string {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(time.trim());
  if (!m) return time;
  return `${m[1].padStart(2, "0")}:${m[2]}:${m[3] ?? "00"}`;
}

/** Serializes one v1 standup question. */
export function serializeStandupQuestionV1(q: StandupSettingsView["questions"][number]): V1StandupQuestion {
  return {
    id: q.id,
    color: q.color,
    text: q.text,
    schedule: null,
    // v1 keeps its shapes: extension types map to the nearest v1 value (lib/domain/question-types.ts).
    ...v1QuestionType(q),
    hasAnswers: q._count.answers > 0,
    is_random: false,
    random_texts: [],
    prefilled_by: null,
    text_id: q.id,
    preconditions: [],
    label: "other",
    flavor: "",
  };
}

/** Serializes a v1 standup loaded with `standupSettingsSelect`. */
export function serializeStandupV1(row: StandupSettingsView, opts: SerializeStandupV1Options = {}): V1Standup {
  const noWaitTime = opts.noWaitTime === undefined ? null : opts.noWaitTime;
  return {
    id: row.id,
    name: row.name,
    time: formatTimeV1(row.time),
    wait_time: row.wait_time === null || row.wait_time < 0 ? noWaitTime : row.wait_time,
    timezone: row.timezone,
    days: [...row.days],
    channel: row.broadcast_channel?.name ?? null,
    channel_ready: row.broadcast_channel !== null,
    questions: row.questions.map(serializeStandupQuestionV1),
    users: row.members.map((m) => serializeUserV1(m.user)),
    users_total: row.members.length,
    webhooks: [],
    master: row.owner.chat_id,
    sync_channel_members: row.sync_channel_members,
    sync_channel_ready: row.sync_channel !== null,
    sync_channel: row.sync_channel?.name ?? null,
    confidential: row.is_confidential,
    anonymous: row.is_anonymous,
    draft: row.state === "draft",
    paused: row.state === "paused",
    personalised: row.personalised,
  };
}

/**
 * GET /v1/standups/ and its alias GET /v1/me/standups (spec §4.2, §4.3): the caller's standups as a
 * bare array of v1 standups; `admin=true` lists every standup of the team for team admins. Drafts
 * and confidential standups only for their creator.
 */
export const listStandupsV1 = served(
  {
    tag: "Legacy standups (v1)",
    id: "listStandupsV1",
    summary: "List the caller's standups",
    description:
      "Draft or restricted standups are hidden unless the caller is the creator; `admin=true` lists every standup for team admins.",
    query: v1StandupListQuerySchema,
    response: { description: "Array of v1 standups.", schema: z.array(standupV1Schema) },
    errors: [400],
  },
  async ({ actor, query: { admin } }) => {
    const rows = await listStandupSettings(actor, { drafts: true, teamWide: admin });
    return json(rows.map((row) => serializeStandupV1(row)));
  },
);

/** What one v1 standup write documents besides its head: the body (if it reads one), the response prose and the errors. */
export type StandupWriteV1Doc = {
  /** The documented body; absent for writes that read none (DELETE). */
  body?: { schema: z.ZodType; required?: boolean };
  /** Prose of the v1 standup answered, e.g. "The new v1 standup.". */
  response: string;
  errors: V1Errors;
};

/**
 * A v1 write on /v1/standups/{id}[/…] that answers the written standup (spec §4.3: PATCH, PUT,
 * DELETE, POST …/duplicate): documents tag "Legacy standups (v1)", the `id` path, `doc` and the
 * v1 standup schema; reads the JSON body when `doc.body` is declared (an absent body is `{}` when
 * it is not `required`), runs `write(actor, id, body)` and answers the standup with `wait_time`
 * -1 for "no automatic asking".
 * @throws what `readJson` and `write` throw (400 / 401 / 404 / 422 in the v1 shape).
 */
export function standupWriteV1(
  head: { id: string; summary: string; description: string },
  doc: StandupWriteV1Doc,
  write: (actor: Actor, id: number, body: unknown) => Promise<StandupSettingsView>,
): ServedMethod {
  const response = { description: doc.response, schema: standupV1Schema };
  return served(
    { tag: "Legacy standups (v1)", ...head, path: v1IdPath("Standup"), body: doc.body, response, errors: doc.errors },
    async ({ request, actor, id }) => {
      const body = doc.body ? await readJson(request, { allowEmpty: doc.body.required === false }) : undefined;
      return json(serializeStandupV1(await write(actor, id, body), { noWaitTime: -1 }));
    },
  );
}
