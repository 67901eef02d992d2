/**
 * Response schemas of the public API, written from the contract (api-spec.md §2.1–2.8 and §7) plus
 * the v1 fields of compatibility.md. They feed the OpenAPI document (lib/openapi/document.ts) and
 * tests/api/openapi.test.ts, which parses real responses with them: every object is strict, so a
 * serializer field the contract does not name, or a contract field the serializer does not send,
 * fails there instead of drifting silently.
 *
 * Schemas with a `meta({ id })` become `components.schemas` entries; the rest are inlined.
 */
import { z } from "zod";
import type {} from "zod-openapi";

// ---------------------------------------------------------------------------------------------
// building blocks

const zId = z.number().int().positive().meta({ example: 42 });
const zChatUserId = z.string().meta({ description: "Chat-style user id.", example: "U0123ABCD" });
/** Drops zod's long validation regex from a rendered string format (the `format` says it). */
const dropPattern = ({ jsonSchema }: { jsonSchema: { pattern?: string } }) => {
  delete jsonSchema.pattern;
};
const zTimestamp = z.iso
  .datetime({ offset: true })
  .meta({ description: "ISO 8601 timestamp.", example: "2026-03-02T09:00:00.000Z", override: dropPattern });
const zCalendarDate = z.iso.date().meta({ description: "Calendar date, YYYY-MM-DD.", example: "2026-03-02", override: dropPattern });
const zCount = z.number().int().min(0);

// ---------------------------------------------------------------------------------------------
// v2 (spec §2.1–2.6)

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
    answer_type: z.string().meta({ description: "e.g. text, multiple_choice, open_ended.", example: "text" }),
    choices: z.array(z.string()).meta({ description: "Filled for multiple-choice questions, empty otherwise." }),
  })
  .meta({ id: "QuestionV2" });

const broadcastChannelSchema = z
  .strictObject({
    id: z.string().meta({ description: "Channel id.", example: "C0123ABCD" }),
    name: z.string().meta({ description: "Channel name.", example: "general" }),
  })
  .nullable();

/** Fields shared by the v2 standup and the v2 poll (spec §2.2, §2.3). */
const checkinV2Shape = {
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

/** v2 poll (spec §2.3): the standup fields without `wait_time` and `is_confidential`. */
export const pollV2Schema = z.strictObject(checkinV2Shape).meta({ id: "PollV2" });

/** v2 report (spec §2.4). */
export const reportV2Schema = z
  .strictObject({
    id: zId,
    standup_id: zId,
    standup_name: z.string(),
    user_id: zChatUserId.nullable().meta({ description: "Author's user id; null when the report is anonymous." }),
    posted_at: zTimestamp,
    is_anonymous: z.boolean().meta({ description: "True if either the standup or the report was anonymous at submission." }),
    is_confidential: z.boolean(),
    answers: z
      .array(
        z.strictObject({
          id: zId,
          question_id: zId,
          question: z.string().meta({ description: "Question text." }),
          answer: z.string().meta({ description: "Plain text." }),
        }),
      )
      .optional()
      .meta({ description: "Omitted when `view=summary` on the list endpoint." }),
  })
  .meta({ id: "ReportV2" });

const questionResultShape = {
  question_id: zId,
  text: z.string(),
  total_responses: zCount.meta({ description: "Total answers submitted." }),
  total_responders: zCount.meta({ description: "Distinct responders." }),
};

const categoryCountSchema = z.strictObject({
  name: z.string(),
  count: zCount.meta({ description: "May sum to more than `total_responses` (multi-label)." }),
});

/** Multiple-choice question result (spec §2.5). */
export const multipleChoiceResultV2Schema = z
  .strictObject({
    ...questionResultShape,
    answer_type: z.literal("multiple_choice"),
    choices: z.array(
      z.strictObject({
        text: z.string().meta({ description: "Choice label." }),
        votes: zCount,
        voters: z.array(zChatUserId).nullable().meta({ description: "User ids; null when the poll is anonymous." }),
      }),
    ),
  })
  .meta({ id: "MultipleChoiceResultV2" });

/** Open-ended question result (spec §2.5). */
export const openEndedResultV2Schema = z
  .strictObject({
    ...questionResultShape,
    answer_type: z.literal("open_ended"),
    categorization_status: z.enum(["pending", "processing", "completed", "failed"]).nullable(),
    categories: z.array(categoryCountSchema).optional().meta({ description: "When categorization is completed." }),
    responses: z.array(
      z.strictObject({
        text: z.string(),
        categories: z.array(z.string()).optional().meta({ description: "Categories assigned, when categorization is completed." }),
        user_id: zChatUserId.nullable().meta({ description: "Null when the poll is anonymous." }),
      }),
    ),
  })
  .meta({ id: "OpenEndedResultV2" });

/** v2 poll results (spec §2.5): `data` of GET /v2/polls/{pollId}/votes. */
export const pollResultsV2Schema = z
  .strictObject({
    poll_id: zId,
    poll_name: z.string(),
    is_anonymous: z.boolean(),
    instances: z
      .array(
        z.strictObject({
          instance_id: zId,
          date: zCalendarDate,
          questions: z.array(z.discriminatedUnion("answer_type", [multipleChoiceResultV2Schema, openEndedResultV2Schema])),
        }),
      )
      .meta({ description: "Instances in scope (latest only by default)." }),
  })
  .meta({ id: "PollResultsV2" });

const participationShape = {
  date: zCalendarDate,
  responded: zCount,
  participation_rate: z.number().min(0).max(1).meta({ description: "responded / expected, 0–1." }),
};

/** Standup participation entry (spec §2.6). */
export const standupParticipationV2Schema = z
  .strictObject({
    standup_id: zId,
    is_poll: z.literal(false),
    ...participationShape,
    expected: zCount.meta({ description: "Members expected to respond (vacation/out-of-office non-responders excluded)." }),
    excluded: z.strictObject({ vacation: zCount.meta({ description: "Out-of-office/vacation members excluded." }) }),
  })
  .meta({ id: "StandupParticipationV2" });

/** Poll participation entry (spec §2.6). */
export const pollParticipationV2Schema = z
  .strictObject({
    poll_id: zId,
    is_poll: z.literal(true),
    ...participationShape,
    expected: zCount.meta({ description: "The poll's recipient count." }),
  })
  .meta({ id: "PollParticipationV2" });

/** v2 list envelope (spec §2.1) around `item`. */
export function listEnvelopeSchema<T extends z.ZodType>(item: T, id: string) {
  return z
    .strictObject({
      data: z.array(item),
      next_cursor: z.string().nullable().meta({ description: "Cursor of the next page; null when `has_more` is false." }),
      has_more: z.boolean(),
    })
    .meta({ id });
}

/** v2 single-resource envelope `{ data }` (spec §2.1) around `item`. */
export function dataEnvelopeSchema<T extends z.ZodType>(item: T, id: string) {
  return z.strictObject({ data: item }).meta({ id });
}

export const standupListV2Schema = listEnvelopeSchema(standupV2Schema, "StandupListV2");
export const standupDataV2Schema = dataEnvelopeSchema(standupV2Schema, "StandupDataV2");
export const pollListV2Schema = listEnvelopeSchema(pollV2Schema, "PollListV2");
export const pollDataV2Schema = dataEnvelopeSchema(pollV2Schema, "PollDataV2");
export const reportListV2Schema = listEnvelopeSchema(reportV2Schema, "ReportListV2");
export const reportDataV2Schema = dataEnvelopeSchema(reportV2Schema, "ReportDataV2");
export const pollResultsDataV2Schema = dataEnvelopeSchema(pollResultsV2Schema, "PollResultsDataV2");
export const standupParticipationListV2Schema = listEnvelopeSchema(standupParticipationV2Schema, "StandupParticipationListV2");
export const pollParticipationListV2Schema = listEnvelopeSchema(pollParticipationV2Schema, "PollParticipationListV2");

/** POST /v2/polls/{pollId}/votes (v2 extension, issue 10): the recorded vote. */
export const voteV2Schema = z
  .strictObject({
    poll_id: z.number().int(),
    instance_id: z.number().int().meta({ description: "The broadcast voted on (the poll's current instance)." }),
    date: z.string().meta({ description: "Broadcast date, YYYY-MM-DD." }),
    voted_at: z.string().meta({ description: "ISO 8601 timestamp of the vote." }),
    answers: z.array(
      z.strictObject({
        question_id: z.number().int(),
        choices: z.array(z.string()).nullable().meta({ description: "Chosen labels (multiple-choice); null for open-ended." }),
        text: z.string().nullable().meta({ description: "The answer (open-ended); null for multiple-choice." }),
      }),
    ),
  })
  .meta({ id: "VoteV2" });
export const voteDataV2Schema = z.strictObject({ data: voteV2Schema }).meta({ id: "VoteDataV2" });

/** DELETE /v2/reports/{reportId} (spec §4.2): `{success: true}`. */
export const successV2Schema = z.strictObject({ success: z.literal(true).meta({ description: "Always true." }) }).meta({ id: "SuccessV2" });

/** Every error code a v2 endpoint answers (spec §7, compatibility.md 401, the service's 405/409/500). */
export const V2_ERROR_CODES = [
  "INVALID_PARAMETER",
  "CHANNEL_NOT_FOUND",
  "USER_NOT_FOUND",
  "NOT_FOUND",
  "MISMATCHED_IDEMPOTENCY_BODY",
  "UNAUTHORIZED",
  "METHOD_NOT_ALLOWED",
  "IDEMPOTENCY_KEY_IN_USE",
  "INTERNAL_ERROR",
  "POLL_CLOSED",
  "UNKNOWN_CHOICE",
  "TOO_MANY_CHOICES",
] as const;

export type V2ErrorCode = (typeof V2_ERROR_CODES)[number];

/** v2 structured error (spec §7) restricted to `codes`. */
export function v2ErrorSchema(codes: readonly [V2ErrorCode, ...V2ErrorCode[]]) {
  return z.strictObject({
    error: z.strictObject({
      code: z.enum(codes),
      message: z.string().meta({ description: "Human-readable explanation." }),
    }),
  });
}

/** v1 error body (compatibility.md): `{"error": "<human message>"}`. */
export const errorV1Schema = z.strictObject({ error: z.string().meta({ example: "Not found" }) }).meta({ id: "ErrorV1" });

// ---------------------------------------------------------------------------------------------
// user and team (spec §2.7)

const zRole = z.enum(["admin", "billing_admin", "member"]);
const zProfileImg = z.string().meta({ description: "Profile image URL (192 px).", example: "https://avatars.example/U0123ABCD.png" });

/** `user` of GET /v1/me (spec §2.7). */
export const currentUserV1Schema = z
  .strictObject({
    id: zChatUserId,
    username: z.string(),
    realname: z.string(),
    firstname: z.string(),
    email: z.string(),
    profile_img: zProfileImg,
    timezone: z.string(),
    role: z.string().meta({ description: "Role description.", example: "admin" }),
    is_admin: z.boolean(),
    is_billing_admin: z.boolean(),
  })
  .meta({ id: "CurrentUserV1" });

/** GET /v1/me (spec §2.7). */
export const meV1Schema = z
  .strictObject({ user: currentUserV1Schema, team: z.strictObject({ id: zId, name: z.string() }) })
  .meta({ id: "MeV1" });

/** GET /v1/me/teams (spec §2.7). */
export const myTeamsV1Schema = z
  .strictObject({
    teams: z.array(z.strictObject({ id: zId, name: z.string(), is_admin: z.boolean(), standup_count: zCount })),
  })
  .meta({ id: "MyTeamsV1" });

/** User object of GET /v1/teams/ (spec §2.7) and inside v1 standups: chat-style string id. */
export const teamUserV1Schema = z
  .strictObject({ id: zChatUserId, role: zRole, email: z.string(), username: z.string(), realname: z.string(), profile_img: zProfileImg })
  .meta({ id: "TeamUserV1" });

/** GET /v1/teams/ (spec §2.7): one object. */
export const teamV1Schema = z
  .strictObject({
    id: zId,
    name: z.string(),
    users: z.array(teamUserV1Schema).meta({ description: "Users participating in at least one standup visible to the caller." }),
  })
  .meta({ id: "TeamV1" });

// ---------------------------------------------------------------------------------------------
// legacy v1 (spec §2.8 + compatibility.md)

/** User object inside v1 polls and among poll voters (spec §2.8: `id` number; compatibility.md fields). */
export const legacyUserV1Schema = z
  .strictObject({
    id: zId.meta({ description: "Numeric user id." }),
    role: zRole,
    email: z.string(),
    username: z.string(),
    realname: z.string(),
    profile_img: zProfileImg,
  })
  .meta({ id: "LegacyUserV1" });

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
    master: zId.meta({ description: "Creator's numeric user id." }),
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

/** v1 poll (spec §2.8 + compatibility.md "Poll"). */
export const pollV1Schema = z
  .strictObject({
    id: zId,
    name: z.string(),
    time: z.string(),
    timezone: z.string(),
    questions: z.array(
      z.strictObject({
        id: zId,
        text: z.string(),
        answer_type: z.string(),
        answer_choices: z.array(z.string()),
        add_own_options: z.boolean(),
        one_option_limit: z.boolean(),
      }),
    ),
    users: z.array(legacyUserV1Schema),
    recurrence: z
      .strictObject({
        type: z.string().meta({ example: "once" }),
        repeat: z.unknown(),
        every: z.unknown(),
        day: z.unknown(),
        month: z.unknown(),
      })
      .meta({ description: "Inner field types: not shown in the spec." }),
    sync_channel_members: z.boolean(),
    sync_channel: z.string(),
    anonymous: z.boolean(),
    dm_mode: z.boolean(),
    intro: z.string(),
    creator: legacyUserV1Schema,
    users_total: zCount,
    paused: z.boolean(),
    days: z.array(z.string()).meta({ description: "Extension: the poll's schedule days (Mon..Sun)." }),
    channel: z.string().meta({ description: 'Extension: broadcast channel name ("" when none).' }),
    duration: z.number().int().nullable().meta({ description: "Extension: minutes the poll stays open; null when unlimited." }),
  })
  .meta({ id: "PollV1" });

/** v1 poll results (spec §2.8 "v1 poll results" + compatibility.md "Poll votes"). */
export const pollResultsV1Schema = z
  .strictObject({
    total_results: zCount.meta({ description: "Number of poll instances in the result." }),
    questions: z.array(
      z.strictObject({
        id: zId,
        text: z.string(),
        answer_type: z.string(),
        total_responses: zCount,
        total_responders: zCount,
        categories: z.array(categoryCountSchema),
        results: z.array(
          z.strictObject({
            date: z.string(),
            answers: z.array(
              z.strictObject({
                text: z.string(),
                votes: zCount,
                percentage: z.number().int().min(0).max(100).meta({ description: "Whole number." }),
                users: z.array(legacyUserV1Schema).meta({ description: "Empty when the poll is anonymous." }),
              }),
            ),
          }),
        ),
      }),
    ),
    instances: z.array(z.strictObject({ id: zId, date: z.string(), answer_count: zCount })),
  })
  .meta({ id: "PollResultsV1" });

const profileImgSizesSchema = z
  .record(z.string(), z.string())
  .meta({ description: "Image URLs by size (image_24 … image_512, image_original)." });

const reportAnswerV1Schema = z
  .strictObject({
    id: zId.meta({ description: "Answer id." }),
    question: z.string().meta({ description: "Question text." }),
    question_id: zId,
    color: z.string(),
    answer: z.string().meta({ description: "HTML when `html=true`." }),
    images: z.array(z.strictObject({ title: z.string(), image_url: z.string() })),
  })
  .meta({ id: "ReportAnswerV1" });

const zChatTs = z.string().nullable().meta({ description: "Id of the report's chat message; null when not broadcast." });

/** v1 report list item (spec §2.8 + compatibility.md "Report list item"). */
export const reportListItemV1Schema = z
  .strictObject({
    id: zId,
    standup_id: zId,
    timestamp: z.number().int().meta({ description: "Unix time (seconds)." }),
    channel: z.string(),
    is_anonymous: z.boolean(),
    broadcast_thread: z.boolean(),
    is_confidential: z.boolean(),
    chat_ts: zChatTs,
    slack_ts: zChatTs.meta({ description: "Same value as `chat_ts` (name read by existing clients)." }),
    member: z
      .strictObject({ id: zChatUserId, username: z.string(), realname: z.string(), profileImg: profileImgSizesSchema })
      .optional()
      .meta({ description: "Omitted when the report is anonymous." }),
    questions: z.array(reportAnswerV1Schema),
    standup_name: z.string().meta({ description: "Extension: name of the report's standup." }),
  })
  .meta({ id: "ReportListItemV1" });

/** v1 report create response (spec §2.8 + compatibility.md "Report create response"). */
export const reportCreatedV1Schema = z
  .strictObject({
    id: zId,
    chat_ts: zChatTs,
    slack_ts: zChatTs,
    standup_id: zId,
    timestamp: z.number().int(),
    started_at: z.number().int(),
    done_at: z.number().int().positive(),
    broadcasted_at: z.string().nullable().meta({ description: "ISO 8601 time of the broadcast; null when nothing was broadcast." }),
    channel: z.string(),
    is_anonymous: z.boolean().meta({ description: "Extension: whether the report is anonymous." }),
    member: z.strictObject({
      id: zChatUserId,
      role: zRole,
      username: z.string(),
      realname: z.string(),
      profileImg: profileImgSizesSchema,
    }),
    answers: z.array(reportAnswerV1Schema),
  })
  .meta({ id: "ReportCreatedV1" });

/** POST /v1/standups/{id}/start (compatibility.md): the JSON string "ok". */
export const startedV1Schema = z.literal("ok");
