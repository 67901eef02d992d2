/**
 * v2 standups and polls at the HTTP edge: the list query schema of spec §4.1, the `include`
 * schema, the cursor binding of the list, and the serializer of spec §2.2 (standup) and §2.3
 * (poll: no `wait_time`, no `is_confidential`).
 *
 * The rows come from `checkinViewSelect` of lib/domain/standups.ts. GET /v2/standups, /v2/polls
 * and their `{id}` reads do not call the serializer: PostgreSQL builds the same JSON text
 * (lib/api/v2/standups-sql.ts `checkinWirePage`, checked byte for byte against
 * `serializeCheckinV2` by lib/api/v2/standups.test.ts) and `checkinRead` / `checkinList` send it as
 * it is. The writes' responses and webhook events still serialize here.
 *
 * Wire decisions where the spec is silent:
 * - `time` is rendered as stored, "HH:MM:SS" (lossless; POST accepts HH:MM or HH:MM:SS).
 * - `members` are ordered by when they were added, then by user id.
 * - `questions` (with include=questions) are the non-archived questions ordered by the stored
 *   position (then id); their `position` is renumbered 0..n-1 in that order (spec: "0-indexed
 *   display order"), so gaps left by archived questions never show.
 * - `state=` (empty) means the default (both states); created_since after created_until is a
 *   reversed range (400); equal bounds give an empty list.
 */
import { z } from "zod";
import { type CursorPosition, decodeCursor } from "@/lib/api/cursor";
import { dataEnvelopeSchema, dataEnvelopeText, listEnvelopeSchema } from "@/lib/api/envelope";
import { zBoolString, zCsvSet, zDate, zLimit } from "@/lib/api/query";
import type { ListSpec, ReadSpec } from "@/lib/api/route";
import type { CheckinWireParts, CheckinWireRow } from "@/lib/api/v2/standups-sql";
import { zChatUserId, zCount, zId, zTimestamp } from "@/lib/api/wire";
import type { CheckinKind } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { InvalidParameterError } from "@/lib/domain/errors";
import { RATING_SCALE } from "@/lib/domain/question-types";
import type { CheckinView, StandupListFilters } from "@/lib/domain/standups";

/** Values of the `include` parameter (spec §4.1). */
export const INCLUDE_VALUES = ["questions", "member_username", "member_realname", "member_email"] as const;
export type IncludeValue = (typeof INCLUDE_VALUES)[number];
export type IncludeSet = ReadonlySet<IncludeValue>;

const zInclude = zCsvSet(INCLUDE_VALUES, "include")
  .optional()
  .transform((v): IncludeSet => v ?? new Set());

/** Query of GET /v2/standups/{id} and GET /v2/polls/{id}: only `include`. */
export const checkinReadQuerySchema = z.object({ include: zInclude });

/** Query of GET /v2/standups and GET /v2/polls (spec §4.1). Dates: created_since inclusive, created_until exclusive. */
export const checkinListQuerySchema = z
  .object({
    state: zCsvSet(["active", "paused"] as const, "state").optional(),
    is_anonymous: zBoolString.optional(),
    broadcast_channel: z.string().trim().min(1, "must not be empty").optional(),
    created_since: zDate.optional(),
    created_until: zDate.optional(),
    cursor: z.string().min(1, "must not be empty").optional(),
    limit: zLimit(25),
    include: zInclude,
  })
  .superRefine((q, ctx) => {
    if (q.created_since && q.created_until && q.created_since > q.created_until) {
      ctx.addIssue({ code: "custom", path: ["created_since"], message: "must not be after created_until (reversed range)" });
    }
  })
  .transform(({ state, ...rest }) => ({
    ...rest,
    // An empty value (`state=`) means the default: both states.
    states: state && state.size > 0 ? [...state].sort() : (["active", "paused"] as Array<"active" | "paused">),
  }));

export type CheckinListQuery = z.output<typeof checkinListQuerySchema>;

/**
 * Domain filters of a standup/poll list (`StandupListFilters` of lib/domain/standups.ts) plus the
 * optional parts of each item's wire JSON that `include` asks for.
 */
export type CheckinListFilters = StandupListFilters & { parts: CheckinWireParts };

/** The optional parts of a standup's or poll's wire JSON (lib/api/v2/standups-sql.ts) that an `include` set asks for (spec §4.1). */
export function checkinWireParts(include: IncludeSet): CheckinWireParts {
  return {
    questions: include.has("questions"),
    memberEmail: include.has("member_email"),
    memberUsername: include.has("member_username"),
    memberRealname: include.has("member_realname"),
  };
}

/**
 * Turns a parsed list query into domain filters and the cursor binding. The binding is the
 * endpoint plus every filter that shapes the result set (state, is_anonymous, broadcast_channel,
 * created_since, created_until), not `limit` or `include`.
 * @throws InvalidParameterError when `cursor` is garbage, tampered or from other filters.
 */
export function toCheckinListFilters(
  q: CheckinListQuery,
  endpoint: "v2.standups" | "v2.polls",
): { filters: CheckinListFilters; binding: unknown } {
  const binding = {
    e: endpoint,
    state: q.states,
    is_anonymous: q.is_anonymous ?? null,
    broadcast_channel: q.broadcast_channel ?? null,
    created_since: q.created_since?.toISOString() ?? null,
    created_until: q.created_until?.toISOString() ?? null,
  };
  let after: CheckinListFilters["after"];
  if (q.cursor) {
    const [created, id, ...extra] = decodeCursor(q.cursor, binding);
    const createdAt = typeof created === "string" ? new Date(created) : null;
    if (!createdAt || Number.isNaN(createdAt.getTime()) || typeof id !== "number" || !Number.isInteger(id) || extra.length) {
      throw new InvalidParameterError("Invalid cursor");
    }
    after = { createdAt, id };
  }
  return {
    filters: {
      states: q.states,
      isAnonymous: q.is_anonymous,
      broadcastChannel: q.broadcast_channel,
      createdSince: q.created_since,
      createdUntil: q.created_until,
      after,
      limit: q.limit,
      withQuestions: q.include.has("questions"),
      parts: checkinWireParts(q.include),
    },
    binding,
  };
}

/** Keyset position of a standup/poll in list order (created desc, id desc); `created_at` as ISO text (`CheckinWireRow`). */
export function checkinCursorPosition(row: { created_at: string; id: number }): CursorPosition {
  return [row.created_at, row.id];
}

/** A row loaded with `checkinViewSelect` (lib/domain/standups.ts). */
export type CheckinV2Row = CheckinView;

/**
 * The read of GET /v2/standups/{id} (`kind` "standup") and GET /v2/polls/{id} ("poll") for
 * `readRoute`: `include` query, `load(actor, kind, id, parts)` (`getCheckinWire` of
 * lib/api/v2/standups-sql.ts: the item's wire JSON text with the parts `include` asks for), answered
 * as `{"data":<text>}` without parsing the text.
 */
export function checkinRead(
  kind: CheckinKind,
  load: (actor: Actor, kind: CheckinKind, id: number, parts: CheckinWireParts) => Promise<string>,
): ReadSpec<typeof checkinReadQuerySchema, string> {
  return {
    query: checkinReadQuerySchema,
    load: ({ actor, id, query }) => load(actor, kind, id, checkinWireParts(query.include)),
    wire: dataEnvelopeText,
  };
}

/**
 * The list of GET /v2/standups and GET /v2/polls (for `listRoute`): the list query of spec §4.1,
 * filters and cursor binding for `endpoint`, `load(actor, kind, filters, parts)` with the kind of
 * the endpoint (`listCheckinWires` of lib/api/v2/standups-sql.ts: each item's wire JSON text),
 * created-order keyset; the envelope is written around the texts as they are.
 */
export function checkinList(
  endpoint: "v2.standups" | "v2.polls",
  load: (actor: Actor, kind: CheckinKind, filters: StandupListFilters, parts: CheckinWireParts) => Promise<CheckinWireRow[]>,
): ListSpec<typeof checkinListQuerySchema, CheckinListFilters, CheckinWireRow> {
  const kind: CheckinKind = endpoint === "v2.polls" ? "poll" : "standup";
  return {
    query: checkinListQuerySchema,
    filters: (query) => toCheckinListFilters(query, endpoint),
    load: ({ actor, filters }) => load(actor, kind, filters, filters.parts),
    wire: (row) => row.json,
    position: checkinCursorPosition,
  };
}

/** v2 standup/poll member (spec §2.2): `email`, `username`, `realname` only with the matching `include`. */
export const memberV2Schema = z
  .strictObject({
    id: zChatUserId,
    email: z.string().optional().meta({ description: "Only when `include` has `member_email`." }),
    username: z.string().optional().meta({ description: "Only when `include` has `member_username`." }),
    realname: z.string().optional().meta({ description: "Only when `include` has `member_realname`." }),
  })
  .meta({ id: "MemberV2" });

/** v2 standup/poll question (spec §2.2), present with `include=questions`. */
export const questionV2Schema = z
  .strictObject({
    id: zId,
    text: z.string(),
    position: zCount.meta({ description: "0-indexed display order." }),
    answer_type: z.string().meta({
      description:
        "e.g. text, multiple_choice, open_ended. Extension values (standups, issue 41): `rating` (a whole number on `scale`), " +
        "`number` (a decimal number), `multi_select` (any of `choices`). Answers of every type are plain text: a rating " +
        'answer is the number picked ("4"), a number answer the number ("3.5"), a multi-select answer the picked choices ' +
        "joined by a newline.",
      example: "text",
    }),
    choices: z.array(z.string()).meta({ description: "Filled for multiple_choice and multi_select questions, empty otherwise." }),
    optional: z
      .literal(true)
      .optional()
      .meta({ description: "Extension, present (true) only on optional questions: they may be left out or answered blank." }),
    scale: z
      .strictObject({
        min: z.number().int(),
        max: z.number().int(),
        labels: z.array(z.string()).meta({ description: "One label per point from `min` up, or empty." }),
      })
      .optional()
      .meta({ description: "Extension, present only on rating questions: the scale's lowest and highest point and labels." }),
  })
  .meta({ id: "QuestionV2" });

const broadcastChannelSchema = z
  .strictObject({
    id: z.string().meta({ description: "Channel id.", example: "C0123ABCD" }),
    name: z.string().meta({ description: "Channel name.", example: "general" }),
  })
  .nullable();

/** Fields shared by the v2 standup and the v2 poll (spec §2.2, §2.3). */
export const checkinV2Shape = {
  id: zId,
  name: z.string(),
  state: z.enum(["active", "paused"]),
  time: z.string().meta({ description: "Time of day it runs.", example: "09:00:00" }),
  timezone: z.string().meta({ example: "Europe/Berlin" }),
  days: z.array(z.string()).meta({ description: "Days it is active.", example: ["Mon", "Tue", "Wed", "Thu", "Fri"] }),
  broadcast_channel: broadcastChannelSchema,
  is_anonymous: z.boolean(),
  owner: zChatUserId.meta({ description: "User id of the creator." }),
  created: zTimestamp,
  updated: zTimestamp,
  members: z.array(memberV2Schema),
  questions: z.array(questionV2Schema).optional().meta({ description: "Only when `include` has `questions`." }),
};

/** v2 standup (spec §2.2). */
export const standupV2Schema = z
  .strictObject({
    ...checkinV2Shape,
    wait_time: z.number().int().nullable().meta({ description: "Minutes to wait after login before asking." }),
    is_confidential: z.boolean(),
  })
  .meta({ id: "StandupV2" });

/** v2 standup or poll as `serializeCheckinV2` sends it (the poll omits `wait_time` and `is_confidential`). */
export type V2Checkin = Omit<z.output<typeof standupV2Schema>, "wait_time" | "is_confidential"> &
  Partial<Pick<z.output<typeof standupV2Schema>, "wait_time" | "is_confidential">>;
export type V2Member = z.output<typeof memberV2Schema>;
export type V2Question = z.output<typeof questionV2Schema>;

export const standupListV2Schema = listEnvelopeSchema(standupV2Schema, "StandupListV2");
export const standupDataV2Schema = dataEnvelopeSchema(standupV2Schema, "StandupDataV2");

/**
 * Serializes a standup (spec §2.2) or, when `row.kind` is "poll", a poll (spec §2.3: no
 * `wait_time`, no `is_confidential`). Member fields and `questions` follow `include`.
 */
export function serializeCheckinV2(row: CheckinV2Row, include: IncludeSet): V2Checkin {
  const isPoll = row.kind === "poll";
  const out: V2Checkin = {
    id: row.id,
    name: row.name,
    // lists and reads only ever load visible (active or paused) rows (lib/domain/access.ts)
    state: row.state as V2Checkin["state"],
    time: row.time,
    ...(isPoll ? {} : { wait_time: row.wait_time ?? null }),
    timezone: row.timezone,
    days: [...row.days],
    broadcast_channel: row.broadcast_channel ? { id: row.broadcast_channel.chat_id, name: row.broadcast_channel.name } : null,
    is_anonymous: row.is_anonymous,
    ...(isPoll ? {} : { is_confidential: row.is_confidential }),
    owner: row.owner.chat_id,
    created: row.created_at.toISOString(),
    updated: row.updated_at.toISOString(),
    members: row.members.map(({ user }) => {
      const m: V2Member = { id: user.chat_id };
      if (include.has("member_email")) m.email = user.email;
      if (include.has("member_username")) m.username = user.username;
      if (include.has("member_realname")) m.realname = user.realname;
      return m;
    }),
  };
  if (include.has("questions")) {
    // `position` is the 0-indexed display order (spec §2.2): the index in the list, which is
    // ordered by the stored position; stored positions may have gaps (archived questions).
    out.questions = (row.questions ?? []).map((q, index) => ({
      id: q.id,
      text: q.text,
      position: index,
      answer_type: q.answer_type,
      choices: q.answer_type === "multiple_choice" || q.answer_type === "multi_select" ? [...q.choices] : [],
      ...(q.optional ? { optional: true } : {}),
      ...(q.answer_type === "rating"
        ? {
            scale: {
              min: q.scale_min ?? RATING_SCALE.defaultMin,
              max: q.scale_max ?? RATING_SCALE.defaultMax,
              labels: [...(q.scale_labels ?? [])],
            },
          }
        : {}),
    }));
  }
  return out;
}
