/**
 * Creating a standup — one domain function shared by POST /v2/standups (spec §4.2) and
 * POST /v1/standups/ (spec §4.3). Version-neutral: plain typed input, no HTTP; the caller's
 * transaction client may be passed so the write commits with an idempotency record.
 */
import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { type ChannelRef, channelMemberIds, resolveChannel } from "@/lib/domain/channels";
import { InvalidParameterError, UserNotFoundError } from "@/lib/domain/errors";
import { isValidTimezone, parseTimeOfDay, WEEKDAYS } from "@/lib/domain/schedule";
import { refreshNextRunAt } from "@/lib/domain/scheduler";
import type { CheckinState } from "@/lib/generated/prisma/client";

/** Name of a standup created without one (spec §4.2 POST /v2/standups: "Defaults to 'Standup #'"). */
export const DEFAULT_STANDUP_NAME = "Standup #";

/** One question of a new standup; `choices` (non-empty) makes it multiple-choice. */
export type NewQuestionInput = { text: string; choices?: string[] | null };

/** Input of `createStandup`. Times are local wall-clock times in `timezone`. */
export type CreateStandupInput = {
  /** Defaults to "Standup #", exactly as spec §4.2 words it. */
  name?: string | null;
  /** At least one question; order gives `position` (0-indexed). */
  questions: NewQuestionInput[];
  /** Three-letter weekday names ("Mon".."Sun", any case); at least one; stored as "Mon". */
  days: string[];
  /** "HH:MM" or "HH:MM:SS" (24 h), local time in `timezone`; stored as "HH:MM:SS". */
  time: string;
  /** IANA timezone name; defaults to the team's timezone. */
  timezone?: string | null;
  /** Channel id or name (with or without '#') where reports are posted; null: no broadcast. */
  broadcastChannel: string | null;
  /** Channel id or name to sync members from. */
  syncChannel?: string | null;
  /** Explicit members: chat ids ("U0123ABCD") or numeric user ids (numbers or digit strings). */
  users?: Array<string | number> | null;
  /**
   * Member source. true: synced from `syncChannel`, else `broadcastChannel`. false: exactly `users`
   * (v1 `sync_channel_members: false`). Absent (v2): `users` when non-empty, else synced from
   * `syncChannel`, else from `broadcastChannel`.
   */
  syncChannelMembers?: boolean;
  isAnonymous?: boolean;
  /** Minutes after login before asking; null: no automatic asking. Default null. */
  waitTime?: number | null;
  personalised?: boolean;
  /** v2 always creates non-confidential standups (default false). */
  isConfidential?: boolean;
  /** Default "active". */
  state?: Extract<CheckinState, "active" | "paused" | "draft">;
};

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

/** Validates questions into rows (text trimmed; non-empty `choices` → multiple_choice). @throws InvalidParameterError */
export function parseQuestions(
  questions: readonly NewQuestionInput[],
): Array<{ text: string; answer_type: "text" | "multiple_choice"; choices: string[] }> {
  if (!Array.isArray(questions) || questions.length === 0) throw new InvalidParameterError("questions: at least one question is required");
  return questions.map((q, i) => {
    const text = typeof q?.text === "string" ? q.text.trim() : "";
    if (!text) throw new InvalidParameterError(`questions.${i}.text: required`);
    const raw: unknown[] = Array.isArray(q.choices) ? q.choices : [];
    const choices = raw.map((c) => (typeof c === "string" ? c.trim() : ""));
    if (choices.some((c: string) => !c)) throw new InvalidParameterError(`questions.${i}.choices: every choice must be a non-empty string`);
    return { text, answer_type: choices.length ? ("multiple_choice" as const) : ("text" as const), choices };
  });
}

/** Largest value of a numeric id column (PostgreSQL `integer`). */
const MAX_DB_ID = 2_147_483_647;

/**
 * Resolves user references of the actor's team to numeric ids (order kept, duplicates dropped).
 * Deactivated users, and numbers outside 1..2147483647, count as unknown.
 * @throws UserNotFoundError listing every unknown reference.
 */
export async function resolveUserIds(actor: Pick<Actor, "teamId">, refs: ReadonlyArray<string | number>, tx: Tx = db): Promise<number[]> {
  const numeric = new Set<number>();
  const chatIds = new Set<string>();
  for (const ref of refs) {
    // A number outside the id column's range (PostgreSQL integer) cannot name a user: reported unknown below.
    if (typeof ref === "number" && Number.isInteger(ref)) {
      if (ref >= 1 && ref <= MAX_DB_ID) numeric.add(ref);
    } else if (typeof ref === "string" && /^\d{1,9}$/.test(ref.trim())) numeric.add(Number(ref.trim()));
    else if (typeof ref === "string" && ref.trim()) chatIds.add(ref.trim());
    else throw new UserNotFoundError([String(ref)]);
  }
  const rows = await tx.user.findMany({
    where: { team_id: actor.teamId, deactivated_at: null, OR: [{ id: { in: [...numeric] } }, { chat_id: { in: [...chatIds] } }] },
    select: { id: true, chat_id: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r.id]));
  const byChat = new Map(rows.map((r) => [r.chat_id, r.id]));
  const missing: string[] = [];
  const ids: number[] = [];
  for (const ref of refs) {
    const trimmed = typeof ref === "string" ? ref.trim() : ref;
    const id = typeof trimmed === "number" || /^\d{1,9}$/.test(trimmed) ? byId.get(Number(trimmed)) : byChat.get(trimmed);
    if (id === undefined) missing.push(String(ref));
    else if (!ids.includes(id)) ids.push(id);
  }
  if (missing.length) throw new UserNotFoundError(missing);
  return ids;
}

/**
 * Creates a standup owned by the actor, with its questions and members, and sets `next_run_at`
 * (UTC instant of the next scheduled run after now).
 * - Members: see `CreateStandupInput.syncChannelMembers`. When synced from a channel, the channel
 *   is stored as `sync_channel_id` with `sync_channel_members = true`; its current active members
 *   become the standup's members.
 * - Both channels are resolved (by id or name) even when `users` decides the members.
 * @returns the new standup's id.
 * @throws InvalidParameterError (bad days, time, timezone, questions, name),
 *   ChannelNotFoundError (broadcast or sync channel unresolved), UserNotFoundError (unknown user).
 */
export async function createStandup(actor: Actor, input: CreateStandupInput, tx?: Tx): Promise<{ id: number }> {
  const days = parseDays(input.days);
  const time = parseStandupTime(input.time);
  const questions = parseQuestions(input.questions);
  if (input.name !== undefined && input.name !== null && typeof input.name !== "string")
    throw new InvalidParameterError("name: must be a string");
  if (input.waitTime !== undefined && input.waitTime !== null && !(Number.isInteger(input.waitTime) && input.waitTime >= -1)) {
    throw new InvalidParameterError("wait_time: must be a whole number of minutes");
  }

  const run = async (t: Tx) => {
    const team = await t.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { timezone: true } });
    const timezone = input.timezone ?? team.timezone;
    if (!isValidTimezone(timezone)) throw new InvalidParameterError(`timezone: "${String(timezone)}" is not an IANA timezone`);

    const broadcast: ChannelRef | null = input.broadcastChannel ? await resolveChannel(actor, input.broadcastChannel, t) : null;
    const sync: ChannelRef | null = input.syncChannel ? await resolveChannel(actor, input.syncChannel, t) : null;

    const users = input.users ?? [];
    const useUsers = input.syncChannelMembers === false || (input.syncChannelMembers === undefined && users.length > 0);
    let memberIds: number[];
    let syncFrom: ChannelRef | null = null;
    if (useUsers) {
      memberIds = await resolveUserIds(actor, users, t);
    } else {
      syncFrom = sync ?? broadcast;
      memberIds = syncFrom ? await channelMemberIds(syncFrom.id, t) : [];
    }

    const name = (typeof input.name === "string" ? input.name.trim() : "") || DEFAULT_STANDUP_NAME;
    const state = input.state ?? "active";

    const created = await t.checkin.create({
      data: {
        team_id: actor.teamId,
        kind: "standup",
        name,
        state,
        time,
        timezone,
        days,
        // spec §2.2/§2.8: omitted = automatic asking at the scheduled time (0); null or -1 = only when started.
        wait_time: input.waitTime === undefined ? 0 : input.waitTime === null || input.waitTime < 0 ? null : input.waitTime,
        broadcast_channel_id: broadcast?.id ?? null,
        sync_channel_id: syncFrom?.id ?? null,
        sync_channel_members: syncFrom !== null,
        is_anonymous: input.isAnonymous ?? false,
        is_confidential: input.isConfidential ?? false,
        personalised: input.personalised ?? false,
        owner_id: actor.userId,
        questions: { create: questions.map((q, position) => ({ team_id: actor.teamId, position, ...q })) },
        members: { create: memberIds.map((user_id) => ({ team_id: actor.teamId, user_id })) },
      },
      select: { id: true },
    });
    // next_run_at from the stored schedule: null without automatic asking, personalised aware.
    await refreshNextRunAt(created.id, t);
    return { id: created.id };
  };
  return inTransaction(tx, run);
}
