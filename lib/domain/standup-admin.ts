/**
 * Administering one standup, plus the reads the legacy endpoints need that the shared read
 * modules do not offer (spec §4.3). Nothing here is tied to a wire version: plain typed input and
 * typed rows, no HTTP; writes go through the shared domain functions (`createStandup`,
 * `submitReport`, `createPoll`, `getPollVotes`) wherever one exists, so v1 and v2 share one domain.
 *
 * - Standups: read one, create (full configuration), update (partial), replace, duplicate,
 *   archive ("delete") and start an occurrence now.
 * - Reports: the legacy list (no window limit, several authors, question filter) and the
 *   submission with the legacy rules (creator may submit; any subset of the questions).
 * - Polls: the polls a user takes part in or created, one of them, creation, and results over a
 *   date range with the voters' user rows.
 *
 * Access:
 * - "Can see": `v1ListableStandupWhere(actor, { admin: true })` — a non-archived standup the
 *   caller participates in or created (team admins: any standup of the team); drafts and
 *   confidential standups only for their creator. Anything else → NotFoundError.
 * - "Can edit" (update, replace, archive, start): the creator or a team admin; a caller who can
 *   see the standup but may not edit it → ForbiddenError (v1 answers 401).
 *
 * Every write runs in one transaction that first locks the standup row (`FOR UPDATE`), so
 * concurrent edits of one standup serialize and a failure leaves nothing half-written.
 * Members and channels are resolved inside the team: user references are numeric user ids or
 * chat-style ids (`U0123ABCD`); channels are chat ids (`C0123ABCD`) or names (with or without '#').
 */
import { type Db, db as defaultDb, type Tx } from "@/lib/db";
import { absenceKindsOn } from "@/lib/domain/absences";
import type { Actor } from "@/lib/domain/actor";
import { askDueBatch } from "@/lib/domain/asking";
import { windowEnd } from "@/lib/domain/asking-times";
import { channelMemberIds, resolveChannel } from "@/lib/domain/channels";
import { ForbiddenError, InvalidParameterError, NotFoundError, UnprocessableError, UserNotFoundError } from "@/lib/domain/errors";
import { type CreatePollInput, createPoll } from "@/lib/domain/polls";
import { type AnswerInput, submitReport } from "@/lib/domain/report-writes";
import { isValidTimezone, localDateOf, parseTimeOfDay } from "@/lib/domain/schedule";
import { activeMembersSelect, askingScheduleOf, askingScheduleSelect, refreshNextRunAt } from "@/lib/domain/scheduler";
import { createStandup, parseDays, parseQuestions, resolveUserIds } from "@/lib/domain/standup-create";
import { currentQuestionsSelect, membersV1Select, type StandupV1View, standupV1Select, userV1Select } from "@/lib/domain/standups";
import { listableReportWhere, v1AccessiblePollWhere, v1ListableStandupWhere } from "@/lib/domain/visibility";
import { getPollVotes, type PollQuestionRef, type PollResults } from "@/lib/domain/votes";
import type { Prisma } from "@/lib/generated/prisma/client";

type TxClient = Prisma.TransactionClient;

/** A user reference: numeric user id or chat-style string id. */
export type UserRef = number | string;

/** A question of a standup configuration; `choices` makes it multiple-choice. */
export type StandupQuestionConfig = { text: string; choices?: string[] };

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
};

/** The three questions a standup gets when none are given (spec §4.3 POST/PUT). */
export const DEFAULT_STANDUP_QUESTIONS: readonly StandupQuestionConfig[] = [
  { text: "What did you do since the last standup?" },
  { text: "What will you do today?" },
  { text: "Anything blocking your progress?" },
];

/** Who a manual start asks; both empty → every member. */
export type StartTargets = { users?: UserRef[]; emails?: string[] };

/** What `startStandup` did. */
export type StartResult = { occurrenceId: number; date: string; asked: number[] };

const MAX_NAME = 200;
const MAX_QUESTIONS = 30;

// ---------------------------------------------------------------------------------------------
// reads

/**
 * One standup the caller can see (participant, creator, or any team admin; drafts and
 * confidential standups only for their creator; archived never), in the legacy view.
 * @throws NotFoundError otherwise.
 */
export async function getStandupForV1(actor: Actor, id: number, client: Tx = defaultDb): Promise<StandupV1View> {
  const row = await client.checkin.findFirst({
    where: { AND: [{ id }, v1ListableStandupWhere(actor, { admin: true })] },
    select: standupV1Select,
  });
  if (!row) throw new NotFoundError("Standup");
  return row;
}

/** The Prisma select of a report in the legacy (v1) shapes: list item and create form (spec §2.8). */
export const reportV1Select = {
  id: true,
  checkin_id: true,
  status: true,
  is_anonymous: true,
  started_at: true,
  submitted_at: true,
  created_at: true,
  checkin: {
    select: {
      name: true,
      is_confidential: true,
      broadcast_thread: true,
      broadcast_channel: { select: { chat_id: true, name: true } },
    },
  },
  user: {
    select: { chat_id: true, username: true, realname: true, email: true, avatar_url: true, is_admin: true, is_billing_admin: true },
  },
  answers: {
    select: { id: true, question_id: true, text: true, question: { select: { text: true, color: true } } },
    orderBy: [{ question: { position: "asc" } }, { question_id: "asc" }],
  },
  chat_messages: {
    where: { kind: "report", deleted_at: null },
    select: { ts: true, created_at: true },
    orderBy: { id: "desc" },
    take: 1,
  },
} satisfies Prisma.ReportSelect;

/** A report loaded with `reportV1Select`. */
export type ReportV1View = Prisma.ReportGetPayload<{ select: typeof reportV1Select }>;

/** Filters of the legacy report list (GET /v1/reports/), already validated. */
export type LegacyReportFilters = {
  /** Page size (1..100). */
  limit: number;
  standupId?: number;
  /** Authors: numeric user ids or chat ids. Unknown references match nothing. */
  userRefs?: UserRef[];
  /** Exclusive lower bound on the submission time. */
  after?: Date;
  /** Exclusive upper bound on the submission time. */
  before?: Date;
  /** Only answers to these questions are loaded (reports themselves are not filtered). */
  questionIds?: number[];
};

/**
 * Submitted reports of active standups the caller can see (the same rule as GET /v2/reports,
 * lib/domain/visibility.ts), newest first (submission time, then id), at most `limit`.
 * Filtering by authors other than the caller skips anonymous reports, so authorship never leaks.
 */
export async function listReportsForV1(actor: Actor, filters: LegacyReportFilters, client: Tx = defaultDb): Promise<ReportV1View[]> {
  const and: Prisma.ReportWhereInput[] = [listableReportWhere(actor)];
  if (filters.standupId !== undefined) and.push({ checkin_id: filters.standupId });
  if (filters.after) and.push({ submitted_at: { gt: filters.after } });
  if (filters.before) and.push({ submitted_at: { lt: filters.before } });
  if (filters.userRefs?.length) {
    const numeric = filters.userRefs.filter((r): r is number => typeof r === "number");
    const chat = filters.userRefs.filter((r): r is string => typeof r === "string");
    and.push({ user: { team_id: actor.teamId, OR: [{ id: { in: numeric } }, { chat_id: { in: chat } }] } });
    const onlySelf = filters.userRefs.every((r) => r === actor.userId || r === actor.userChatId);
    if (!onlySelf) and.push({ OR: [{ user_id: actor.userId }, { is_anonymous: false, checkin: { is_anonymous: false } }] });
  }
  const select = filters.questionIds
    ? { ...reportV1Select, answers: { ...reportV1Select.answers, where: { question_id: { in: filters.questionIds } } } }
    : reportV1Select;
  return client.report.findMany({
    where: { AND: and },
    orderBy: [{ submitted_at: "desc" }, { id: "desc" }],
    take: filters.limit,
    select,
  });
}

/**
 * One report of the caller (any status) in the legacy view; used to answer POST /v1/reports/.
 * @throws NotFoundError when it does not exist or the caller did not write it.
 */
export async function getOwnReportForV1(actor: Actor, id: number, client: Tx = defaultDb): Promise<ReportV1View> {
  const row = await client.report.findFirst({ where: { id, team_id: actor.teamId, user_id: actor.userId }, select: reportV1Select });
  if (!row) throw new NotFoundError("Report");
  return row;
}

/**
 * Submits the caller's report through the shared `submitReport` (lib/domain/report-writes.ts:
 * same occurrence, broadcast and participation as POST /v2/reports) with the legacy rules: the
 * standup's creator may submit without being a member, and any non-empty subset of the questions
 * may be answered. Returns the stored report in the legacy view, in the same transaction.
 * @throws NotFoundError (standup missing, not active, a poll, or caller neither member nor creator),
 * InvalidParameterError (unknown or duplicate question ids).
 */
export async function submitReportForV1(
  actor: Actor,
  input: { standupId: number; answers: AnswerInput[] },
  client: Db = defaultDb,
): Promise<ReportV1View> {
  return client.$transaction(async (tx) => {
    const submitted = await submitReport(
      actor,
      { standupId: input.standupId, answers: input.answers, allowOwner: true, requireAllQuestions: false },
      tx,
    );
    return getOwnReportForV1(actor, submitted.reportId, tx);
  });
}

// ---------------------------------------------------------------------------------------------
// legacy poll reads (GET /v1/polls, /v1/polls/{id}, /v1/polls/{id}/votes)

/** The Prisma select of a poll in the legacy (v1) shape. */
export const pollV1Select = {
  id: true,
  name: true,
  state: true,
  time: true,
  timezone: true,
  days: true,
  is_anonymous: true,
  sync_channel_members: true,
  intro: true,
  recurrence: true,
  duration: true,
  dm_mode: true,
  created_at: true,
  owner: { select: userV1Select },
  broadcast_channel: { select: { chat_id: true, name: true } },
  sync_channel: { select: { chat_id: true, name: true } },
  members: membersV1Select,
  questions: currentQuestionsSelect({
    id: true,
    text: true,
    answer_type: true,
    choices: true,
    add_own_options: true,
    one_option_limit: true,
  }),
} satisfies Prisma.CheckinSelect;

/** A poll loaded with `pollV1Select`. */
export type PollV1View = Prisma.CheckinGetPayload<{ select: typeof pollV1Select }>;

/** Polls the caller takes part in or created (active or paused), newest first. */
export async function listPollsForV1(actor: Actor, client: Tx = defaultDb): Promise<PollV1View[]> {
  return client.checkin.findMany({
    where: v1AccessiblePollWhere(actor),
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    select: pollV1Select,
  });
}

/**
 * One poll of the caller's team that the caller takes part in or created.
 * @throws NotFoundError otherwise (other teams, archived or draft polls, standups).
 */
export async function getPollForV1(actor: Actor, id: number, client: Tx = defaultDb): Promise<PollV1View> {
  const row = await client.checkin.findFirst({ where: { AND: [{ id }, v1AccessiblePollWhere(actor)] }, select: pollV1Select });
  if (!row) throw new NotFoundError("Poll");
  return row;
}

/**
 * Creates a one-time poll through the shared `createPoll` (lib/domain/polls.ts, as POST /v2/polls:
 * posted to the channel now, current channel members invited, the caller as creator) and returns
 * it in the legacy view, in one transaction.
 * @throws InvalidParameterError, ChannelNotFoundError.
 */
export async function createPollForV1(actor: Actor, input: CreatePollInput, client: Db = defaultDb): Promise<PollV1View> {
  return client.$transaction(async (tx) => {
    const { id } = await createPoll(actor, input, tx);
    return tx.checkin.findUniqueOrThrow({ where: { id }, select: pollV1Select });
  });
}

/** A voter as the legacy results show them (a v1 user object's source fields). */
export type PollVoter = Prisma.UserGetPayload<{ select: typeof userV1Select }>;

/**
 * Results of a poll for the legacy endpoint: the shared results, the voters' user rows, and the
 * poll's current questions (so each is listed even when no instance falls in the range).
 */
export type PollResultsWithVoters = { results: PollResults; voters: PollVoter[]; questions: PollQuestionRef[] };

/** Start of the "every instance" range (no date is earlier). */
const BEGINNING = new Date(Date.UTC(1970, 0, 1));

/**
 * Results of a poll the caller takes part in or created, computed by the shared `getPollVotes`
 * (lib/domain/votes.ts, as GET /v2/polls/{id}/votes) over the instances whose date falls in
 * [from, to) — every instance up to today when neither bound is given (the legacy endpoint has no
 * "latest only" default) — plus the user rows of every voter (one query); the poll's current
 * questions come with the results (`currentQuestions`, loaded with the poll).
 * @throws NotFoundError, InvalidParameterError (reversed range).
 */
export async function getPollResultsForV1(
  actor: Actor,
  id: number,
  range: { from?: Date; to?: Date },
  client: Tx = defaultDb,
): Promise<PollResultsWithVoters> {
  const now = new Date();
  // A `from` in the future with no `to` is an empty range here, not a reversed one.
  const until = range.to ?? (range.from && range.from.getTime() > now.getTime() ? range.from : undefined);
  const results = await getPollVotes(actor, id, { since: range.from ?? BEGINNING, until }, { access: "creator_or_member", now }, client);
  const voterIds = new Set<number>();
  for (const instance of results.instances) {
    for (const q of instance.questions) {
      for (const c of q.choices ?? []) for (const v of c.voters ?? []) voterIds.add(v.id);
      for (const r of q.responses ?? []) if (r.voter) voterIds.add(r.voter.id);
    }
  }
  const voters = voterIds.size
    ? await client.user.findMany({ where: { id: { in: [...voterIds] }, team_id: actor.teamId }, select: userV1Select })
    : [];
  return { results, voters, questions: results.currentQuestions };
}

// ---------------------------------------------------------------------------------------------
// writes

/**
 * Creates a standup from a full configuration (the shared `createStandup` of
 * lib/domain/standup-create.ts, so standups created here and through v2 are the same thing) and
 * returns it in the legacy view, in one transaction. Questions default to the three standard
 * ones; members come from `users`, or from the channel when `syncChannelMembers` is true.
 * @throws InvalidParameterError (missing name, channel, time, timezone or days; bad values),
 * ChannelNotFoundError, UserNotFoundError.
 */
export async function createStandupForV1(actor: Actor, input: StandupConfig, client: Db = defaultDb): Promise<StandupV1View> {
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
    return loadView(tx, id);
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
export async function updateStandup(actor: Actor, id: number, input: StandupConfig, client: Db = defaultDb): Promise<StandupV1View> {
  return client.$transaction(async (tx) => {
    const current = await lockEditable(tx, actor, id);
    if (input.syncChannelMembers === false && !input.users?.length) {
      throw new InvalidParameterError("users: required when sync_channel_members is false");
    }
    await applyConfig(tx, actor, current, input);
    return loadView(tx, id);
  });
}

/**
 * Replaces the whole configuration (PUT semantics): fields absent from `input` take their
 * defaults — three default questions, `waitTime` 0 (asked at the scheduled time), `personalised` false, no sync channel,
 * `syncChannelMembers` true when no `users` are given.
 * @throws as `updateStandup`; InvalidParameterError when name, channel, time, timezone or days are missing.
 */
export async function replaceStandup(actor: Actor, id: number, input: StandupConfig, client: Db = defaultDb): Promise<StandupV1View> {
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
    const current = await lockEditable(tx, actor, id);
    if (!syncChannelMembers && !input.users?.length) throw new InvalidParameterError("users: required when sync_channel_members is false");
    await applyConfig(tx, actor, current, full);
    return loadView(tx, id);
  });
}

/**
 * Creates a copy of a standup the caller can see, owned by the caller: name, channels, schedule,
 * wait time, questions, members, flags and sync settings are copied, then every field given in
 * `overrides` replaces the copied value. The copy is active (a draft source gives a draft copy);
 * when `overrides.name` is absent the copy is named "<name> (copy)".
 * @throws NotFoundError (not visible), UnprocessableError (confidential standup), and the
 * validation errors of `updateStandup` for the overrides.
 */
export async function duplicateStandup(actor: Actor, id: number, overrides: StandupConfig, client: Db = defaultDb): Promise<StandupV1View> {
  return client.$transaction(async (tx) => {
    const source = await tx.checkin.findFirst({
      where: { AND: [{ id }, v1ListableStandupWhere(actor, { admin: true })] },
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
        name: truncate(`${source.name} (copy)`, MAX_NAME),
        state: source.state === "draft" ? "draft" : "active",
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
        owner_id: actor.userId,
        questions: {
          create: source.questions.map((q) => ({
            team_id: source.team_id,
            position: q.position,
            text: q.text,
            answer_type: q.answer_type,
            choices: q.choices,
            color: q.color,
            add_own_options: q.add_own_options,
            one_option_limit: q.one_option_limit,
          })),
        },
        members: { create: source.members.map((m) => ({ team_id: source.team_id, user_id: m.user_id })) },
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
    return loadView(tx, copy.id);
  });
}

/**
 * "Deletes" a standup: its state becomes archived (never visible again through the API; reports
 * and history are kept) and it is no longer scheduled.
 * @returns the standup as it was before archiving.
 * @throws NotFoundError, ForbiddenError.
 */
export async function archiveStandup(actor: Actor, id: number, client: Db = defaultDb): Promise<StandupV1View> {
  return client.$transaction(async (tx) => {
    await lockEditable(tx, actor, id);
    const before = await loadView(tx, id);
    await tx.checkin.update({ where: { id }, data: { state: "archived", next_run_at: null } });
    return before;
  });
}

/**
 * Starts the standup now: uses today's occurrence (local date in the standup's timezone) or
 * creates it (trigger manual), then for each target member records them in the occurrence
 * snapshot, creates a pending report unless they already have one for this occurrence (a
 * submitted one means they are not asked again), and queues a direct question message (the
 * chat outbox) with the first question.
 * Targets: with neither `users` nor `emails`, every member (members on vacation or out of office
 * that day are recorded but not asked); otherwise exactly the given members — user ids numeric or
 * chat ids, e-mails matched case-insensitively.
 * Drafts cannot be started (UnprocessableError); paused standups can be started by hand.
 * @throws NotFoundError, ForbiddenError, UnprocessableError, UserNotFoundError (unknown user or
 * e-mail), InvalidParameterError (a given user is not a member of the standup).
 */
export async function startStandup(
  actor: Actor,
  id: number,
  targets: StartTargets = {},
  client: Db = defaultDb,
  now: Date = new Date(),
): Promise<StartResult> {
  return client.$transaction(async (tx) => {
    const standup = await lockEditable(tx, actor, id);
    if (standup.state === "draft") throw new UnprocessableError("A draft standup cannot be started");
    const full = await tx.checkin.findUniqueOrThrow({
      where: { id },
      select: { ...askingScheduleSelect, members: activeMembersSelect },
    });
    const memberIds = full.members.map((m) => m.user_id);
    const explicit = Boolean(targets.users?.length || targets.emails?.length);
    let targetIds: number[];
    if (explicit) {
      const ids = new Set<number>();
      for (const u of await resolveUserIds(actor, targets.users ?? [], tx)) ids.add(u);
      for (const u of await resolveEmails(tx, actor.teamId, targets.emails ?? [])) ids.add(u);
      const outsiders = [...ids].filter((u) => !memberIds.includes(u));
      if (outsiders.length) throw new InvalidParameterError(`users: not participants of this standup: ${outsiders.join(", ")}`);
      targetIds = [...ids].sort((a, b) => a - b);
    } else {
      targetIds = memberIds;
    }

    const dateString = localDateOf(now, isValidTimezone(full.timezone) ? full.timezone : "UTC");
    const date = new Date(`${dateString}T00:00:00.000Z`);
    // Race-safe with the scheduler and report submissions creating the same day's occurrence; an
    // ad-hoc occurrence of today becomes a manual run.
    const windowEnds = windowEnd(askingScheduleOf(full), now, null);
    await tx.$executeRaw`
      INSERT INTO occurrences (team_id, checkin_id, date, scheduled_at, started_at, closes_at, trigger, created_at)
      VALUES (${standup.team_id}, ${id}, ${dateString}::date, ${now}, ${now}, ${windowEnds}, 'manual', ${now})
      ON CONFLICT (checkin_id, date) DO UPDATE
        SET closes_at = GREATEST(occurrences.closes_at, EXCLUDED.closes_at), closed_at = NULL,
            trigger = CASE WHEN occurrences.trigger = 'adhoc' THEN 'manual'::"OccurrenceTrigger" ELSE occurrences.trigger END`;
    const occurrence = await tx.occurrence.findUniqueOrThrow({
      where: { checkin_id_date: { checkin_id: id, date } },
      select: { id: true, started_at: true },
    });
    if (!occurrence.started_at) await tx.occurrence.update({ where: { id: occurrence.id }, data: { started_at: now } });

    // Explicitly targeted users are asked even when absent; everyone else on leave is excused.
    const absent = explicit ? new Map<number, "vacation" | "out_of_office">() : await absenceKindsOn(tx, targetIds, dateString);
    if (targetIds.length) {
      await tx.$executeRaw`
        INSERT INTO occurrence_members (occurrence_id, user_id, team_id, due_at, excused)
        SELECT ${occurrence.id}, u.user_id, ${standup.team_id}, ${now}, u.excused::"ExcuseReason"
        FROM unnest(${targetIds}::int[], ${targetIds.map((u) => absent.get(u) ?? null)}::text[]) AS u(user_id, excused)
        ON CONFLICT (occurrence_id, user_id) DO NOTHING`;
      // "Ask now" asks again whoever has not answered yet (a new question message).
      const again = targetIds.filter((u) => !absent.has(u));
      await tx.$executeRaw`
        UPDATE occurrence_members om SET asked_at = NULL, due_at = ${now}, excused = NULL, missed_at = NULL
        WHERE om.occurrence_id = ${occurrence.id} AND om.user_id = ANY(${again}::int[])
          AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = om.occurrence_id AND r.user_id = om.user_id AND r.status = 'submitted')`;
    }
    const askedRows = await askDueBatch(tx, now, { occurrenceIds: [occurrence.id] });
    const answered = await tx.report.findMany({
      where: { occurrence_id: occurrence.id, status: "submitted" },
      select: { user_id: true },
    });
    const done = new Set(answered.map((r) => r.user_id));
    const toAsk = askedRows
      .map((r) => r.userId)
      .filter((u) => !done.has(u))
      .sort((a, b) => a - b);
    return { occurrenceId: occurrence.id, date: dateString, asked: toAsk };
  });
}

// ---------------------------------------------------------------------------------------------
// helpers

type LockedStandup = {
  id: number;
  team_id: number;
  owner_id: number;
  state: string;
  broadcast_channel_id: number | null;
  sync_channel_id: number | null;
  sync_channel_members: boolean;
};

/**
 * Locks a standup row of the actor's team (`FOR UPDATE`), then loads it when the actor can see it
 * (`v1ListableStandupWhere` with admin, which never matches archived standups) and checks edit
 * permission. Visibility is read after the lock, so it reflects any edit that was waiting on it.
 * @throws NotFoundError (not visible), ForbiddenError (visible but not editable by the actor).
 */
async function lockEditable(tx: TxClient, actor: Actor, id: number): Promise<LockedStandup> {
  await tx.$queryRaw`SELECT id FROM checkins WHERE id = ${id} AND team_id = ${actor.teamId} FOR UPDATE`;
  const row = await tx.checkin.findFirst({
    where: { AND: [{ id }, v1ListableStandupWhere(actor, { admin: true })] },
    select: {
      id: true,
      team_id: true,
      owner_id: true,
      state: true,
      broadcast_channel_id: true,
      sync_channel_id: true,
      sync_channel_members: true,
    },
  });
  if (!row) throw new NotFoundError("Standup");
  if (row.owner_id !== actor.userId && !actor.isAdmin)
    throw new ForbiddenError("Only the creator of this standup or a team admin can change it");
  return row;
}

async function loadView(tx: TxClient, id: number): Promise<StandupV1View> {
  return tx.checkin.findUniqueOrThrow({ where: { id }, select: standupV1Select });
}

/**
 * The fields a full configuration (create, replace) must carry: name, channel, time, timezone
 * and days.
 * @returns whether members follow the channel: `syncChannelMembers`, defaulting to "no users given".
 * @throws InvalidParameterError naming the missing fields.
 */
function checkFullConfig(input: StandupConfig): boolean {
  const missing = (["name", "channel", "time", "timezone", "days"] as const).filter((k) => input[k] === undefined);
  if (missing.length) throw new InvalidParameterError(`${missing.join(", ")}: required`);
  return input.syncChannelMembers ?? !input.users?.length;
}

/** Validates and writes the fields present in `input` onto a locked standup. */
async function applyConfig(tx: TxClient, actor: Actor, current: LockedStandup, input: StandupConfig): Promise<void> {
  const data: Prisma.CheckinUncheckedUpdateInput = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw new InvalidParameterError("name: must not be empty");
    data.name = truncate(name, MAX_NAME);
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

/** Makes the member set exactly `userIds` (keeping `added_at` of members who stay). */
async function setMembers(tx: TxClient, standup: { id: number; team_id: number }, userIds: number[]): Promise<void> {
  await tx.checkinMember.deleteMany({ where: { checkin_id: standup.id, user_id: { notIn: userIds } } });
  if (userIds.length) {
    await tx.checkinMember.createMany({
      data: userIds.map((user_id) => ({ checkin_id: standup.id, team_id: standup.team_id, user_id })),
      skipDuplicates: true,
    });
  }
}

/**
 * Replaces the active questions: same text (case-sensitive, trimmed) keeps the question row and
 * its answers; others are archived; new ones created. Positions follow the given order.
 */
async function replaceQuestions(tx: TxClient, standup: { id: number; team_id: number }, questions: StandupQuestionConfig[]): Promise<void> {
  if (questions.length > MAX_QUESTIONS) throw new InvalidParameterError(`questions: at most ${MAX_QUESTIONS}`);
  const parsed = parseQuestions(questions);
  const existing = await tx.question.findMany({
    where: { checkin_id: standup.id, archived_at: null },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  const unused = [...existing];
  const now = new Date();
  for (const [position, { text, choices, answer_type }] of parsed.entries()) {
    const idx = unused.findIndex((e) => e.text.trim() === text);
    if (idx >= 0) {
      const [match] = unused.splice(idx, 1);
      await tx.question.update({ where: { id: match.id }, data: { position, choices, answer_type } });
    } else {
      await tx.question.create({ data: { team_id: standup.team_id, checkin_id: standup.id, position, text, choices, answer_type } });
    }
  }
  if (unused.length) await tx.question.updateMany({ where: { id: { in: unused.map((q) => q.id) } }, data: { archived_at: now } });
}

/** Active users of the team by e-mail, case-insensitive. @throws UserNotFoundError for unknown addresses. */
async function resolveEmails(tx: TxClient, teamId: number, emails: string[]): Promise<number[]> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) return [];
  const rows = await tx.user.findMany({
    where: {
      team_id: teamId,
      deactivated_at: null,
      OR: wanted.map((email) => ({ email: { equals: email, mode: "insensitive" as const } })),
    },
    select: { id: true, email: true },
  });
  const found = new Map(rows.map((r) => [r.email.toLowerCase(), r.id]));
  const missing = wanted.filter((e) => !found.has(e));
  if (missing.length) throw new UserNotFoundError(missing);
  return wanted.map((e) => found.get(e) as number);
}

function truncate(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}
