/**
 * Writing standups (spec §4.2 POST /v2/standups; §4.3 POST/PATCH/PUT/DELETE /v1/standups/…,
 * POST /v1/standups/{id}/duplicate; the dashboard's standup forms and buttons): create, update
 * (partial), replace, duplicate, archive, pause/resume and privacy flags. One domain for every
 * caller; no HTTP, no wire shapes. The standup reads that answer these writes are in
 * lib/domain/standups.ts (`getStandupSettings`, `getStandup`).
 *
 * Access: creating needs nothing more than an actor; every other write needs a standup the actor
 * can see and edit (`editableStandup` of lib/domain/access.ts: creator or team admin; otherwise
 * NotFoundError when invisible, ForbiddenError when visible). Each write runs in one transaction
 * (the caller's when passed) that first locks the standup row, so concurrent edits serialize.
 */
import { type Db, db as defaultDb, inTransaction, type Tx } from "@/lib/db";
import { editableStandup, standupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { refreshNextRunAt } from "@/lib/domain/asking-times";
import { type ChannelRef, channelMemberIds, resolveChannel } from "@/lib/domain/channels";
import { MAX_NAME_LENGTH } from "@/lib/domain/constants";
import { InvalidParameterError, NotFoundError, UnprocessableError } from "@/lib/domain/errors";
import { resolveUserIds } from "@/lib/domain/members";
import { isValidTimezone } from "@/lib/domain/schedule";
import {
  applyConfig,
  checkFullConfig,
  DEFAULT_STANDUP_NAME,
  DEFAULT_STANDUP_QUESTIONS,
  type NewQuestionInput,
  parseAskingSettings,
  parseDays,
  parseQuestions,
  parseStandupTime,
  type StandupConfig,
  truncate,
} from "@/lib/domain/standup-config";
import { getStandupSettings, type StandupSettingsView } from "@/lib/domain/standups";
import type { CheckinState } from "@/lib/generated/prisma/client";

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
  /** Reminders, response window and late answers (`parseAskingSettings`); absent = column defaults. */
  reminderCount?: number;
  reminderAfterMinutes?: number;
  responseWindowMinutes?: number | null;
  lateAnswerDays?: number;
};

/**
 * Creates a standup owned by the actor, with its questions and members, and sets `next_run_at`
 * (UTC instant of the next scheduled run after now).
 * - Members: see `CreateStandupInput.syncChannelMembers`. When synced from a channel, the channel
 *   is stored as `sync_channel_id` with `sync_channel_members = true`; its current active members
 *   become the standup's members.
 * - Both channels are resolved (by id or name) even when `users` decides the members.
 * @returns the new standup's id.
 * @throws InvalidParameterError (bad days, time, timezone, questions, name, asking settings),
 *   ChannelNotFoundError (broadcast or sync channel unresolved), UserNotFoundError (unknown user).
 */
export async function createStandup(actor: Actor, input: CreateStandupInput, tx?: Tx): Promise<{ id: number }> {
  const days = parseDays(input.days);
  const time = parseStandupTime(input.time);
  const questions = parseQuestions(input.questions);
  const asking = parseAskingSettings(input);
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
        ...asking,
        owner_id: actor.userId,
        questions: { create: questions.map((q, position) => ({ position, ...q })) },
        members: { create: memberIds.map((user_id) => ({ user_id })) },
      },
      select: { id: true },
    });
    // next_run_at from the stored schedule: null without automatic asking, personalised aware.
    await refreshNextRunAt(created.id, t);
    return { id: created.id };
  };
  return inTransaction(tx, run);
}

/**
 * Creates a standup from a full configuration (the shared `createStandup` of
 * `createStandup` above, so standups created here and through v2 are the same thing) and
 * returns it in the legacy view, in one transaction. Questions default to the three standard
 * ones; members come from `users`, or from the channel when `syncChannelMembers` is true.
 * @throws InvalidParameterError (missing name, channel, time, timezone or days; bad values),
 * ChannelNotFoundError, UserNotFoundError.
 */
export async function createStandupFromConfig(actor: Actor, input: StandupConfig, client: Db = defaultDb): Promise<StandupSettingsView> {
  const syncChannelMembers = checkFullConfig(input);
  if (!syncChannelMembers && !input.users?.length) throw new InvalidParameterError("users: required when sync_channel_members is false");
  return client.$transaction(async (tx) => {
    const { id } = await createStandup(
      actor,
      {
        name: input.name,
        questions: input.questions?.length ? input.questions : [...DEFAULT_STANDUP_QUESTIONS],
        days: input.days ?? [],
        time: input.time ?? "",
        timezone: input.timezone,
        broadcastChannel: input.channel ?? null,
        syncChannel: input.syncChannel ?? null,
        users: syncChannelMembers ? null : input.users,
        syncChannelMembers,
        waitTime: input.waitTime,
        personalised: input.personalised ?? false,
      },
      tx,
    );
    return getStandupSettings(actor, id, tx);
  });
}

/**
 * Changes only the properties present in `input` (PATCH semantics).
 * - `time` accepts HH:MM:SS, HH:MM and HHMM; `timezone` must be an IANA name.
 * - `waitTime` null means no automatic asking.
 * - `users` replaces the member list (and turns channel syncing off unless `syncChannelMembers`
 *   is true in the same call); `syncChannelMembers: true` without `users` re-syncs members from
 *   the sync channel (or the broadcast channel); `syncChannelMembers: false` requires `users`.
 * - `questions` replaces the question list: questions whose text is unchanged keep their id (and
 *   their answers); removed ones are archived, never deleted.
 * - A new broadcast channel re-syncs members when the standup syncs from its broadcast channel.
 * @returns the standup after the change.
 * @throws NotFoundError, ForbiddenError, InvalidParameterError, ChannelNotFoundError, UserNotFoundError.
 */
export async function updateStandup(actor: Actor, id: number, input: StandupConfig, client: Db = defaultDb): Promise<StandupSettingsView> {
  return client.$transaction(async (tx) => {
    const current = await editableStandup(tx, actor, id, { lock: true });
    if (input.syncChannelMembers === false && !input.users?.length) {
      throw new InvalidParameterError("users: required when sync_channel_members is false");
    }
    await applyConfig(tx, actor, current, input);
    return getStandupSettings(actor, id, tx);
  });
}

/**
 * Replaces the whole configuration (PUT semantics): fields absent from `input` take their
 * defaults — three default questions, `waitTime` 0 (asked at the scheduled time), `personalised` false, no sync channel,
 * `syncChannelMembers` true when no `users` are given.
 * @throws as `updateStandup`; InvalidParameterError when name, channel, time, timezone or days are missing.
 */
export async function replaceStandup(actor: Actor, id: number, input: StandupConfig, client: Db = defaultDb): Promise<StandupSettingsView> {
  const syncChannelMembers = checkFullConfig(input);
  const full: StandupConfig = {
    ...input,
    waitTime: input.waitTime === undefined ? 0 : input.waitTime,
    questions: input.questions?.length ? input.questions : [...DEFAULT_STANDUP_QUESTIONS],
    personalised: input.personalised ?? false,
    syncChannel: input.syncChannel ?? null,
    syncChannelMembers,
  };
  return client.$transaction(async (tx) => {
    const current = await editableStandup(tx, actor, id, { lock: true });
    if (!syncChannelMembers && !input.users?.length) throw new InvalidParameterError("users: required when sync_channel_members is false");
    await applyConfig(tx, actor, current, full);
    return getStandupSettings(actor, id, tx);
  });
}

/**
 * Creates a copy of a standup the caller can see, owned by the caller: name, channels, schedule,
 * wait time, questions, members, flags and sync settings are copied, then every field given in
 * `overrides` replaces the copied value. The copy starts paused (a draft source gives a draft
 * copy), so it never asks the same people at the same time as its source until someone presses
 * _Activate_ (issue 41); `opts.state: "active"` starts it at once (POST /v1/standups/{id}/duplicate,
 * whose body sets the copy's schedule and members). When `overrides.name` is absent the copy is
 * named "<name> (copy)".
 * @throws NotFoundError (not visible), UnprocessableError (confidential standup), and the
 * validation errors of `updateStandup` for the overrides.
 */
export async function duplicateStandup(
  actor: Actor,
  id: number,
  overrides: StandupConfig,
  opts: { state?: "active" | "paused" } = {},
  client: Db = defaultDb,
): Promise<StandupSettingsView> {
  return client.$transaction(async (tx) => {
    const source = await tx.checkin.findFirst({
      where: { AND: [{ id }, standupWhere(actor, { drafts: true, teamWide: true })] },
      include: {
        questions: { where: { archived_at: null }, orderBy: [{ position: "asc" }, { id: "asc" }] },
        members: { select: { user_id: true }, orderBy: [{ added_at: "asc" }, { user_id: "asc" }] },
      },
    });
    if (!source) throw new NotFoundError("Standup");
    if (source.is_confidential) throw new UnprocessableError("A confidential standup cannot be duplicated");
    const copy = await tx.checkin.create({
      data: {
        team_id: source.team_id,
        kind: "standup",
        name: truncate(`${source.name} (copy)`, MAX_NAME_LENGTH),
        state: source.state === "draft" ? "draft" : (opts.state ?? "paused"),
        time: source.time,
        wait_time: source.wait_time,
        timezone: source.timezone,
        days: source.days,
        broadcast_channel_id: source.broadcast_channel_id,
        sync_channel_id: source.sync_channel_id,
        sync_channel_members: source.sync_channel_members,
        is_anonymous: source.is_anonymous,
        is_confidential: false,
        personalised: source.personalised,
        broadcast_thread: source.broadcast_thread,
        reminder_count: source.reminder_count,
        reminder_after_minutes: source.reminder_after_minutes,
        response_window_minutes: source.response_window_minutes,
        late_answer_days: source.late_answer_days,
        owner_id: actor.userId,
        questions: {
          create: source.questions.map((q) => ({
            position: q.position,
            text: q.text,
            answer_type: q.answer_type,
            choices: q.choices,
            color: q.color,
            add_own_options: q.add_own_options,
            one_option_limit: q.one_option_limit,
            is_blocker: q.is_blocker,
            optional: q.optional,
            scale_min: q.scale_min,
            scale_max: q.scale_max,
            scale_labels: q.scale_labels,
          })),
        },
        members: { create: source.members.map((m) => ({ user_id: m.user_id })) },
      },
      select: {
        id: true,
        team_id: true,
        broadcast_channel_id: true,
        sync_channel_id: true,
        sync_channel_members: true,
        owner_id: true,
        state: true,
      },
    });
    await applyConfig(tx, actor, copy, overrides);
    return getStandupSettings(actor, copy.id, tx);
  });
}

/**
 * "Deletes" a standup: its state becomes archived (never visible again through the API; reports
 * and history are kept) and it is no longer scheduled.
 * @returns the standup as it was before archiving.
 * @throws NotFoundError, ForbiddenError.
 */
export async function archiveStandup(actor: Actor, id: number, client: Db = defaultDb): Promise<StandupSettingsView> {
  return client.$transaction(async (tx) => {
    await editableStandup(tx, actor, id, { lock: true });
    const before = await getStandupSettings(actor, id, tx);
    await tx.checkin.update({ where: { id }, data: { state: "archived", next_run_at: null } });
    return before;
  });
}

/**
 * Pauses (`paused`) or resumes (`active`) a standup; `active` also activates a draft (the standup
 * page's _Activate_). Idempotent.
 * @throws NotFoundError (not visible), ForbiddenError (not creator/admin), UnprocessableError (pausing a draft).
 */
export async function setStandupState(
  actor: Actor,
  input: { standupId: number; state: "active" | "paused" },
  tx: Tx = defaultDb,
): Promise<void> {
  const row = await editableStandup(tx, actor, input.standupId);
  if (row.state === "draft" && input.state === "paused")
    throw new UnprocessableError("A draft standup cannot be paused; activate it first");
  if (row.state === input.state) return;
  await tx.checkin.update({ where: { id: row.id }, data: { state: input.state } });
  // next_run_at: null when paused; when active, the next automatic run (none for wait_time null).
  await refreshNextRunAt(row.id, tx);
}

/**
 * Sets the anonymous / confidential flags of a standup (fields left undefined are unchanged).
 * Past reports keep the anonymity they were submitted with.
 * @throws NotFoundError, ForbiddenError.
 */
export async function setStandupPrivacy(
  actor: Actor,
  input: { standupId: number; isAnonymous?: boolean; isConfidential?: boolean; allowAnonymousReports?: boolean },
  tx: Tx = defaultDb,
): Promise<void> {
  const row = await editableStandup(tx, actor, input.standupId);
  const data: { is_anonymous?: boolean; is_confidential?: boolean; allow_anonymous_reports?: boolean } = {};
  if (input.isAnonymous !== undefined) data.is_anonymous = input.isAnonymous;
  if (input.allowAnonymousReports !== undefined) data.allow_anonymous_reports = input.allowAnonymousReports;
  if (input.isConfidential !== undefined) data.is_confidential = input.isConfidential;
  if (Object.keys(data).length > 0) await tx.checkin.update({ where: { id: row.id }, data });
}
