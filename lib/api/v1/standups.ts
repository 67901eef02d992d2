/**
 * Legacy (v1) standup serializer: spec §2.8 plus every extra field of compatibility.md
 * ("Standup", "Standup question"). Rows come from `standupSettingsSelect` (lib/domain/standups.ts).
 *
 * Decisions where the spec is silent:
 * - `time` is "HH:MM:SS" everywhere; `channel` / `sync_channel` are channel names (without '#'),
 *   null when the standup has none; `channel_ready` / `sync_channel_ready` tell whether that
 *   channel is set; `users` are v1 user objects of the active members with the chat-style string
 *   id (`"U0123ABCD"`, as `/v1/teams/` and spec §2.7 give it: existing clients parse it so),
 *   and `master` is the creator's numeric user id. v1 bodies accept either id form in `users`
 *   (lib/api/v1/users.ts).
 * - `wait_time`: null means no automatic asking on the read endpoints (default); the create,
 *   update, duplicate and delete responses pass `{ noWaitTime: -1 }` to render -1 instead.
 * - Question `label` is "other", `text_id` is the question id, `hasAnswers` whether any answer
 *   to that question exists.
 */
import { z } from "zod";
import { zBoolString } from "@/lib/api/query";
import { serializeUserV1, type V1User } from "@/lib/api/v1/users";
import type { StandupSettingsView } from "@/lib/domain/standups";

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
export type V1StandupQuestion = {
  id: number;
  color: string;
  text: string;
  schedule: null;
  answer_type: string;
  answer_choices: string[];
  hasAnswers: boolean;
  is_random: boolean;
  random_texts: string[];
  prefilled_by: null;
  text_id: number;
  preconditions: unknown[];
  label: string;
  flavor: string;
};

/** v1 standup (spec §2.8 + compatibility.md "Standup"). */
export type V1Standup = {
  id: number;
  name: string;
  time: string;
  wait_time: number | null;
  timezone: string;
  days: string[];
  channel: string | null;
  channel_ready: boolean;
  questions: V1StandupQuestion[];
  users: V1User[];
  users_total: number;
  webhooks: unknown[];
  master: number;
  sync_channel_members: boolean;
  sync_channel_ready: boolean;
  sync_channel: string | null;
  confidential: boolean;
  anonymous: boolean;
  draft: boolean;
  paused: boolean;
  personalised: boolean;
};

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
    answer_type: q.answer_type,
    answer_choices: q.answer_type === "multiple_choice" ? [...q.choices] : [],
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
    master: row.owner.id,
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
