/**
 * Standup configuration: validating days, times and questions, and applying a (partial)
 * configuration to a locked standup — shared by every standup write (lib/domain/standup-writes.ts:
 * create, update, replace, duplicate) of the API (v1 and v2) and the dashboard. Times are local
 * wall-clock times in the standup's timezone; `waitTime` is in minutes.
 */
import type { Tx } from "@/lib/db";
import type { EditableStandup } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { refreshNextRunAt } from "@/lib/domain/asking-times";
import { channelMemberIds, resolveChannel } from "@/lib/domain/channels";
import { ASKING_LIMITS, MAX_NAME_LENGTH, MAX_QUESTIONS, WEEKDAYS } from "@/lib/domain/constants";
import { InvalidParameterError } from "@/lib/domain/errors";
import { resolveUserIds, setMembers, type UserRef } from "@/lib/domain/members";
import { EXTENSION_TYPES, parseQuestionType, type QuestionTypeColumns, type QuestionTypeInput } from "@/lib/domain/question-types";
import { isValidTimezone, parseTimeOfDay } from "@/lib/domain/schedule";
import type { Prisma } from "@/lib/generated/prisma/client";

/** Name of a standup created without one (spec §4.2 POST /v2/standups: "Defaults to 'Standup #'"). */
export const DEFAULT_STANDUP_NAME = "Standup #";

/**
 * One question of a new standup; `choices` (non-empty) makes it multiple-choice unless
 * `answerType` says otherwise (lib/domain/question-types.ts: rating, number, multi-select,
 * `optional`, rating `scale`); `isBlocker` marks a "blocker" question (dashboard-only flag, not
 * part of the API contract; when unset it follows `looksLikeBlockerQuestion`).
 */
export type NewQuestionInput = { text: string; choices?: string[] | null; isBlocker?: boolean } & QuestionTypeInput;

/**
 * A question of a standup configuration, as `NewQuestionInput`. Without `answerType` (v1 bodies),
 * a kept question (same text) of an extension type (rating, number, multi-select) keeps its type.
 */
export type StandupQuestionConfig = { text: string; choices?: string[]; isBlocker?: boolean } & QuestionTypeInput;

/**
 * A standup configuration change. Every field is optional: `updateStandup` changes only the
 * fields present; `replaceStandup` and `duplicateStandup` fill the rest (see there).
 */
export type StandupConfig = {
  name?: string;
  /** Broadcast channel: chat id or name. */
  channel?: string;
  /** "HH:MM:SS", "HH:MM" or "HHMM". */
  time?: string;
  timezone?: string;
  /** Minutes after login before asking; null = no automatic asking. */
  waitTime?: number | null;
  /** Three-letter day names. */
  days?: string[];
  questions?: StandupQuestionConfig[];
  /** Explicit members (numeric ids or chat ids). */
  users?: UserRef[];
  /** Members follow the sync channel (or the broadcast channel when none). */
  syncChannelMembers?: boolean;
  /** Channel to sync members from (chat id or name); null clears it. */
  syncChannel?: string | null;
  personalised?: boolean;
  /** Reminders to members who have not answered: 0..MAX_REMINDERS (0 = none). */
  reminderCount?: number;
  /** Minutes after asking before the first reminder (and between reminders): 1..1440. */
  reminderAfterMinutes?: number;
  /** Minutes a member may answer after being asked (1..10080); null = until the next run or 24 h. */
  responseWindowMinutes?: number | null;
  /** Days after the window closes during which a late answer still counts (0..MAX_LATE_ANSWER_DAYS; 0 = none). */
  lateAnswerDays?: number;
};

/** The asking settings of a standup as the `checkins` columns store them. */
export type AskingSettingsColumns = {
  reminder_count?: number;
  reminder_after_minutes?: number;
  response_window_minutes?: number | null;
  late_answer_days?: number;
};

function wholeNumberIn(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidParameterError(`${field}: must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/**
 * Validates the asking settings present in `input` (reminders, response window, late answers)
 * into column values; absent fields are left out.
 * @throws InvalidParameterError naming the field (`reminder_count`, `reminder_after_minutes`,
 *   `response_window_minutes`, `late_answer_days`) when a value is not a whole number in range.
 */
export function parseAskingSettings(
  input: Pick<StandupConfig, "reminderCount" | "reminderAfterMinutes" | "responseWindowMinutes" | "lateAnswerDays">,
): AskingSettingsColumns {
  const out: AskingSettingsColumns = {};
  if (input.reminderCount !== undefined)
    out.reminder_count = wholeNumberIn("reminder_count", input.reminderCount, 0, ASKING_LIMITS.maxReminders);
  if (input.reminderAfterMinutes !== undefined)
    out.reminder_after_minutes = wholeNumberIn(
      "reminder_after_minutes",
      input.reminderAfterMinutes,
      1,
      ASKING_LIMITS.maxReminderAfterMinutes,
    );
  if (input.responseWindowMinutes !== undefined)
    out.response_window_minutes =
      input.responseWindowMinutes === null
        ? null
        : wholeNumberIn("response_window_minutes", input.responseWindowMinutes, 1, ASKING_LIMITS.maxResponseWindowMinutes);
  if (input.lateAnswerDays !== undefined)
    out.late_answer_days = wholeNumberIn("late_answer_days", input.lateAnswerDays, 0, ASKING_LIMITS.maxLateAnswerDays);
  return out;
}

/** The three questions a standup gets when none are given (spec §4.3 POST/PUT). */
export const DEFAULT_STANDUP_QUESTIONS: readonly StandupQuestionConfig[] = [
  { text: "What did you do since the last standup?" },
  { text: "What will you do today?" },
  { text: "Anything blocking your progress?" },
];

/** Normalises three-letter day names. @throws InvalidParameterError for an unknown or long name. */
export function parseDays(days: readonly string[]): string[] {
  if (!Array.isArray(days) || days.length === 0) throw new InvalidParameterError("days: at least one day is required");
  const out: string[] = [];
  for (const d of days) {
    const day = typeof d === "string" ? WEEKDAYS.find((w) => w.toLowerCase() === d.trim().toLowerCase()) : undefined;
    if (!day) throw new InvalidParameterError(`days: "${String(d)}" is not a three-letter day name (Mon, Tue, Wed, Thu, Fri, Sat, Sun)`);
    if (!out.includes(day)) out.push(day);
  }
  return WEEKDAYS.filter((w) => out.includes(w));
}

/** "HH:MM" or "HH:MM:SS" → "HH:MM:SS". @throws InvalidParameterError */
export function parseStandupTime(time: string): string {
  if (typeof time !== "string" || !/^\d{1,2}:\d{2}(:\d{2})?$/.test(time.trim())) {
    throw new InvalidParameterError(`time: "${String(time)}" must be HH:MM or HH:MM:SS`);
  }
  return parseTimeOfDay(time);
}

/**
 * Whether a question's text asks about blockers ("Anything blocking you?", "Blockers?"): the
 * default of the blocker flag when the caller does not set it (the API has no such field).
 */
export function looksLikeBlockerQuestion(text: string): boolean {
  return /\bblock(er|ers|ing|ed)?\b/i.test(text);
}

/**
 * Validates questions into rows (text trimmed; type columns from `parseQuestionType`: without
 * `answerType`, non-empty `choices` → multiple_choice; `is_blocker` from `isBlocker`, else
 * `looksLikeBlockerQuestion(text)`). @throws InvalidParameterError
 */
export function parseQuestions(questions: readonly NewQuestionInput[]): Array<{ text: string; is_blocker: boolean } & QuestionTypeColumns> {
  if (!Array.isArray(questions) || questions.length === 0) throw new InvalidParameterError("questions: at least one question is required");
  return questions.map((q, i) => {
    const text = typeof q?.text === "string" ? q.text.trim() : "";
    if (!text) throw new InvalidParameterError(`questions.${i}.text: required`);
    const raw: unknown[] = Array.isArray(q.choices) ? q.choices : [];
    const choices = raw.map((c) => (typeof c === "string" ? c.trim() : ""));
    if (choices.some((c: string) => !c)) throw new InvalidParameterError(`questions.${i}.choices: every choice must be a non-empty string`);
    const is_blocker = typeof q.isBlocker === "boolean" ? q.isBlocker : looksLikeBlockerQuestion(text);
    return { text, is_blocker, ...parseQuestionType(i, q, choices) };
  });
}

/**
 * The fields a full configuration (create, replace) must carry: name, channel, time, timezone
 * and days.
 * @returns whether members follow the channel: `syncChannelMembers`, defaulting to "no users given".
 * @throws InvalidParameterError naming the missing fields.
 */
export function checkFullConfig(input: StandupConfig): boolean {
  const missing = (["name", "channel", "time", "timezone", "days"] as const).filter((k) => input[k] === undefined);
  if (missing.length) throw new InvalidParameterError(`${missing.join(", ")}: required`);
  return input.syncChannelMembers ?? !input.users?.length;
}

/** Validates and writes the fields present in `input` onto a locked standup. */
export async function applyConfig(
  tx: Tx,
  actor: Actor,
  current: Pick<EditableStandup, "id" | "team_id" | "broadcast_channel_id" | "sync_channel_id" | "sync_channel_members">,
  input: StandupConfig,
): Promise<void> {
  const data: Prisma.CheckinUncheckedUpdateInput = { ...parseAskingSettings(input) };
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw new InvalidParameterError("name: must not be empty");
    data.name = truncate(name, MAX_NAME_LENGTH);
  }
  if (input.time !== undefined) data.time = parseTimeOfDay(input.time);
  if (input.timezone !== undefined) {
    if (!isValidTimezone(input.timezone)) throw new InvalidParameterError(`timezone: unknown timezone "${input.timezone}"`);
    data.timezone = input.timezone;
  }
  if (input.waitTime !== undefined) data.wait_time = input.waitTime === null || input.waitTime < 0 ? null : input.waitTime;
  if (input.days !== undefined) data.days = parseDays(input.days);
  if (input.personalised !== undefined) data.personalised = input.personalised;

  let broadcastChannelId = current.broadcast_channel_id;
  if (input.channel !== undefined) {
    broadcastChannelId = (await resolveChannel(actor, input.channel, tx)).id;
    data.broadcast_channel_id = broadcastChannelId;
  }
  let syncChannelId = current.sync_channel_id;
  if (input.syncChannel !== undefined) {
    syncChannelId = input.syncChannel === null ? null : (await resolveChannel(actor, input.syncChannel, tx)).id;
    data.sync_channel_id = syncChannelId;
  }

  // Members: from the channel when syncing is on (re-synced when the flag or a channel changes),
  // otherwise exactly `users` when given. A sync channel that mirrored the broadcast channel
  // follows it when the broadcast channel changes.
  const sync = input.syncChannelMembers ?? (input.users?.length ? false : current.sync_channel_members);
  data.sync_channel_members = sync;
  if (!sync) {
    if (input.users?.length) {
      await setMembers(tx, current, await resolveUserIds(actor, input.users, tx));
      if (input.syncChannel === undefined) data.sync_channel_id = null;
    }
  } else if (input.syncChannelMembers !== undefined || input.channel !== undefined || input.syncChannel !== undefined) {
    const mirrored = current.sync_channel_id === null || current.sync_channel_id === current.broadcast_channel_id;
    const from =
      input.syncChannel === undefined && input.channel !== undefined && mirrored
        ? broadcastChannelId
        : (syncChannelId ?? broadcastChannelId);
    if (from === null) throw new InvalidParameterError("sync_channel_members: the standup has no channel to sync members from");
    data.sync_channel_id = from;
    await setMembers(tx, current, await channelMemberIds(from, tx));
  }

  if (input.questions !== undefined) await replaceQuestions(tx, current, input.questions);

  await tx.checkin.update({ where: { id: current.id }, data });
  await refreshNextRunAt(current.id, tx);
}

/**
 * Replaces the active questions: same text (case-sensitive, trimmed) keeps the question row and
 * its answers; others are archived; new ones created. Positions follow the given order.
 */
async function replaceQuestions(tx: Tx, standup: { id: number; team_id: number }, questions: StandupQuestionConfig[]): Promise<void> {
  if (questions.length > MAX_QUESTIONS) throw new InvalidParameterError(`questions: at most ${MAX_QUESTIONS}`);
  const parsed = parseQuestions(questions);
  const existing = await tx.question.findMany({
    where: { checkin_id: standup.id, archived_at: null },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  const unused = [...existing];
  const now = new Date();
  for (const [position, { text, is_blocker, ...type }] of parsed.entries()) {
    const idx = unused.findIndex((e) => e.text.trim() === text);
    if (idx >= 0) {
      const [match] = unused.splice(idx, 1);
      // A kept question keeps its blocker flag and `optional` unless the caller sets them (v1 bodies
      // cannot), and its extension type (rating, number, multi-select) unless the caller names a type.
      const given = questions[position];
      const flag = given.isBlocker ?? match.is_blocker;
      const keepType = given.answerType === undefined && EXTENSION_TYPES.includes(match.answer_type);
      const columns = keepType
        ? { choices: type.choices.length && match.answer_type === "multi_select" ? type.choices : match.choices }
        : type;
      const optional = given.optional ?? match.optional;
      await tx.question.update({ where: { id: match.id }, data: { position, ...columns, optional, is_blocker: flag } });
    } else {
      await tx.question.create({ data: { team_id: standup.team_id, checkin_id: standup.id, position, text, ...type, is_blocker } });
    }
  }
  if (unused.length) await tx.question.updateMany({ where: { id: { in: unused.map((q) => q.id) } }, data: { archived_at: now } });
}

export function truncate(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}
