/**
 * Polls (spec §2.3, §4.2 GET/POST /v2/polls, GET /v2/polls/{id}; §4.3 POST /v1/polls).
 * A poll is a `checkins` row of kind `poll`; through v2 it is visible only to its creator, in
 * state active or paused (lib/domain/access.ts); the legacy endpoints also open polls the caller
 * takes part in (`listPollSettings`, `getPollSettings`). Reads return `CheckinView` rows (the shape
 * of lib/domain/standups.ts) so the v2 standup serializer renders polls too.
 */

import { db, inTransaction, type Tx } from "@/lib/db";
import { pollWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { refreshNextRunAt } from "@/lib/domain/asking-times";
import { channelMemberIds, resolveChannel } from "@/lib/domain/channels";
import { checkinViewPage } from "@/lib/domain/checkin-pages";
import { WEEKDAYS } from "@/lib/domain/constants";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { askMembers, openOccurrence } from "@/lib/domain/occurrences";
import { broadcastPollRun } from "@/lib/domain/outbox-polls";
import { isValidTimezone, localDateOf } from "@/lib/domain/schedule";
import { parseDays, parseStandupTime } from "@/lib/domain/standup-config";
import {
  type CheckinView,
  currentQuestionsSelect,
  getCheckin,
  listCheckins,
  memberUsersSelect,
  type StandupListFilters,
  userCardSelect,
} from "@/lib/domain/standups";
import { emitResourceEvent } from "@/lib/domain/webhook-events";
import { Prisma } from "@/lib/generated/prisma/client";

/** Filters of GET /v2/polls: the same as GET /v2/standups (spec §4.1). */
export type PollListFilters = StandupListFilters;

/**
 * Lists the actor's polls (active and paused), newest first (created desc, id desc), keyset
 * paginated, through the shared `listCheckins` (lib/domain/standups.ts).
 * @returns up to `limit + 1` rows (the extra one tells that more exist).
 */
export async function listPolls(actor: Actor, filters: PollListFilters, client: Tx = db): Promise<CheckinView[]> {
  return listCheckins(actor, "poll", filters, client);
}

/**
 * One poll visible to the actor (its creator; active or paused), through the shared `getCheckin`.
 * @throws NotFoundError for polls of other users or teams, archived/draft polls, and standups.
 */
export async function getPoll(actor: Actor, id: number, opts: { withQuestions: boolean }, client: Tx = db): Promise<CheckinView> {
  return getCheckin(actor, "poll", id, opts, client);
}

/**
 * One poll by id, whatever its state and whoever reads (its current questions included): the
 * poll as its `poll.created` webhook renders it at the delivery's first attempt
 * (lib/api/v2/webhook-data.ts). One statement. @returns null when no poll has this id.
 */
export async function loadPollView(id: number, client: Tx = db): Promise<CheckinView | null> {
  const [row] = await checkinViewPage(Prisma.sql`c.id = ${id} AND c.kind = 'poll'`, 1, { withQuestions: true }, client);
  return row ?? null;
}

/** One question of a poll made by `createPoll` with `questions` (the dashboard form). */
export type CreatePollQuestion = {
  text: string;
  answerType: "multiple_choice" | "open_ended";
  /** Multiple-choice: at least 2 distinct non-empty labels. Open-ended: none. */
  choices?: string[];
  /** Multiple-choice: one option per voter (default true); false allows several. */
  oneOptionLimit?: boolean;
  /** Multiple-choice: voters may add their own option (default false). */
  addOwnOptions?: boolean;
};

/** When a recurring poll is broadcast: local `time` ("HH:MM[:SS]") on `days` ("Mon".."Sun") in `timezone` (IANA). */
export type PollSchedule = { days: string[]; time: string; timezone: string };

/** Input of `createPoll` (v2 body and v1 body map onto it; the dashboard form also sets the optional extras). */
export type CreatePollInput = {
  name: string;
  /** The single multiple-choice question (API); ignored when `questions` is given. */
  question?: string;
  /** Its choices: at least 2 distinct non-empty labels. */
  choices?: string[];
  /** Several questions, multiple-choice and/or open-ended, in display order (replaces `question`/`choices`). */
  questions?: CreatePollQuestion[];
  /** Channel id or name (with or without '#'). */
  broadcastChannel: string;
  /** Minutes each broadcast stays open (1..525600); null/absent: open until closed by hand. */
  duration?: number | null;
  /** Default false. */
  isAnonymous?: boolean;
  /** Recipients may read the results of a broadcast once it closed. Default false. */
  shareResults?: boolean;
  /** Introduction text shown with the poll. */
  intro?: string | null;
  /** Recurring poll: broadcast by the scheduler on this schedule; absent/null: one-shot, broadcast now. */
  schedule?: PollSchedule | null;
};

/**
 * What `createPoll` made: the poll and, for a one-shot poll, its first broadcast (occurrence) and
 * the outbox message (null for a recurring poll, whose first broadcast is at `nextRunAt`).
 */
export type CreatedPoll = { id: number; occurrenceId: number | null; chatTs: string | null; closesAt: Date | null; nextRunAt: Date | null };

type NormalisedQuestion = {
  text: string;
  answer_type: "multiple_choice" | "open_ended";
  choices: string[];
  one_option_limit: boolean;
  add_own_options: boolean;
};

/** Checks multiple-choice labels; `field` prefixes the messages. @throws InvalidParameterError */
function normaliseChoices(raw: unknown, field: string): string[] {
  const choices = Array.isArray(raw) ? raw.map((c) => (typeof c === "string" ? c.trim() : "")) : [];
  if (choices.length < 2) throw new InvalidParameterError(`${field}: at least 2 choices are required`);
  if (choices.some((c) => !c)) throw new InvalidParameterError(`${field}: every choice must be a non-empty string`);
  if (new Set(choices).size !== choices.length) throw new InvalidParameterError(`${field}: choices must be distinct`);
  return choices;
}

/**
 * The questions of a new poll: `questions` when given (messages name `questions[i].text` /
 * `questions[i].choices`), else the single `question` with its `choices`.
 * @throws InvalidParameterError
 */
function normaliseQuestions(input: CreatePollInput): NormalisedQuestion[] {
  if (input.questions === undefined) {
    const question = typeof input.question === "string" ? input.question.trim() : "";
    if (!question) throw new InvalidParameterError("question: required");
    const choices = normaliseChoices(input.choices, "choices");
    return [{ text: question, answer_type: "multiple_choice", choices, one_option_limit: true, add_own_options: false }];
  }
  if (!Array.isArray(input.questions) || input.questions.length === 0)
    throw new InvalidParameterError("questions: at least one question is required");
  return input.questions.map((q, i) => {
    const text = typeof q.text === "string" ? q.text.trim() : "";
    if (!text) throw new InvalidParameterError(`questions[${i}].text: required`);
    if (q.answerType === "open_ended") {
      return { text, answer_type: "open_ended", choices: [], one_option_limit: true, add_own_options: false };
    }
    if (q.answerType !== "multiple_choice") throw new InvalidParameterError(`questions[${i}].answerType: multiple_choice or open_ended`);
    return {
      text,
      answer_type: "multiple_choice",
      choices: normaliseChoices(q.choices, `questions[${i}].choices`),
      one_option_limit: q.oneOptionLimit ?? true,
      add_own_options: q.addOwnOptions ?? false,
    };
  });
}

/** Largest accepted `duration` (minutes): one year. */
export const MAX_POLL_DURATION_MINUTES = 525_600;

/**
 * Creates a poll owned by the actor (spec §4.2 POST /v2/polls; the dashboard form adds several
 * questions, open-ended questions, voting options, shared results and recurrence):
 * - a `checkins` row (kind poll, state active) with its questions (`questions`, or one
 *   multiple_choice question from `question`/`choices`);
 * - members synced from the channel (`sync_channel_members` true, `sync_channel_id` = channel);
 * - one-shot (no `schedule`): `recurrence` {type: "once", repeat: null, every: null, day: null,
 *   month: null}, `time`/`days` = now in the team's timezone, `next_run_at` null because it runs
 *   now: the occurrence of today's local date (trigger manual, `closes_at` = now + duration
 *   minutes) with a member snapshot (`askMembers` of lib/domain/occurrences.ts: members on
 *   vacation or out of office today recorded with `asked_at` null), one `chat_messages` row (kind
 *   poll) in the channel and the poll.created event;
 * - recurring (`schedule`): `recurrence` {type: "weekly", repeat: null, every: 1, day: null,
 *   month: null}, the given days/time/timezone, no broadcast now: `next_run_at` is the next slot
 *   (lib/domain/asking-times.ts `refreshNextRunAt`), where the scheduler opens the broadcast, asks
 *   the members with the vote link and closes it `duration` minutes later.
 * @throws InvalidParameterError (empty name/question, fewer than 2 or duplicate choices, bad
 *   duration, days, time or timezone), ChannelNotFoundError.
 */
export async function createPoll(actor: Actor, input: CreatePollInput, tx?: Tx): Promise<CreatedPoll> {
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name) throw new InvalidParameterError("name: required");
  const questions = normaliseQuestions(input);
  const duration = input.duration ?? null;
  if (duration !== null && !(Number.isInteger(duration) && duration >= 1 && duration <= MAX_POLL_DURATION_MINUTES)) {
    throw new InvalidParameterError(`duration: must be a whole number of minutes from 1 to ${MAX_POLL_DURATION_MINUTES}`);
  }
  let schedule: PollSchedule | null = null;
  if (input.schedule) {
    if (!isValidTimezone(input.schedule.timezone)) {
      throw new InvalidParameterError(`timezone: "${String(input.schedule.timezone)}" is not an IANA timezone`);
    }
    schedule = { days: parseDays(input.schedule.days), time: parseStandupTime(input.schedule.time), timezone: input.schedule.timezone };
  }

  const run = async (t: Tx): Promise<CreatedPoll> => {
    const now = new Date();
    const channel = await resolveChannel(actor, input.broadcastChannel, t);
    const team = await t.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { timezone: true } });
    const timezone = isValidTimezone(team.timezone) ? team.timezone : "UTC";
    const date = localDateOf(now, timezone);
    const localTime = new Intl.DateTimeFormat("en-GB", {
      timeZone: timezone,
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    }).format(now);
    const weekday = WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];
    const memberIds = await channelMemberIds(channel.id, t);
    const closesAt = duration !== null && !schedule ? new Date(now.getTime() + duration * 60_000) : null;

    const poll = await t.checkin.create({
      data: {
        team_id: actor.teamId,
        kind: "poll",
        name,
        state: "active",
        time: schedule?.time ?? localTime,
        timezone: schedule?.timezone ?? timezone,
        days: schedule?.days ?? [weekday],
        broadcast_channel_id: channel.id,
        sync_channel_id: channel.id,
        sync_channel_members: true,
        is_anonymous: input.isAnonymous ?? false,
        share_results: input.shareResults ?? false,
        owner_id: actor.userId,
        intro: input.intro ?? null,
        recurrence: schedule
          ? { type: "weekly", repeat: null, every: 1, day: null, month: null }
          : { type: "once", repeat: null, every: null, day: null, month: null },
        duration,
        dm_mode: false,
        next_run_at: null,
        questions: { create: questions.map((q, position) => ({ position, ...q })) },
        members: { create: memberIds.map((user_id) => ({ user_id })) },
      },
      select: { id: true },
    });

    if (schedule) {
      const nextRunAt = await refreshNextRunAt(poll.id, t, now);
      await emitResourceEvent(t, actor.teamId, "poll.created", { kind: "poll", id: poll.id }, now);
      return { id: poll.id, occurrenceId: null, chatTs: null, closesAt: null, nextRunAt };
    }

    const occurrence = await openOccurrence(
      t,
      { id: poll.id, team_id: actor.teamId },
      { date, scheduledAt: now, trigger: "manual", closesAt, now },
    );
    await askMembers(t, {
      checkin: { id: poll.id, team_id: actor.teamId },
      occurrence: { id: occurrence.id, date },
      userIds: memberIds,
      now,
      question: false,
    });
    const message = await broadcastPollRun(t, { pollId: poll.id, occurrenceId: occurrence.id }, now);
    // A reference: the delivery renders the v2 poll (questions included) at its first attempt.
    await emitResourceEvent(t, actor.teamId, "poll.created", { kind: "poll", id: poll.id }, now);
    return { id: poll.id, occurrenceId: occurrence.id, chatTs: message?.ts ?? null, closesAt, nextRunAt: null };
  };
  return inTransaction(tx, run);
}

/** A poll question as the ballot and the poll settings show it: text, answer type, own choices and their rules. */
export const pollQuestionSelect = {
  id: true,
  text: true,
  answer_type: true,
  choices: true,
  add_own_options: true,
  one_option_limit: true,
} satisfies Prisma.QuestionSelect;

/** The head of a poll page (ballot, poll overview): id, name, intro and state. */
export const pollPageHeadSelect = { id: true, name: true, intro: true, state: true } satisfies Prisma.CheckinSelect;

/** The Prisma select of a poll with its full settings (legacy poll shape, spec §4.3). */
export const pollSettingsSelect = {
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
  owner: { select: userCardSelect },
  broadcast_channel: { select: { chat_id: true, name: true } },
  sync_channel: { select: { chat_id: true, name: true } },
  members: memberUsersSelect,
  questions: currentQuestionsSelect(pollQuestionSelect),
} satisfies Prisma.CheckinSelect;

/** A poll loaded with `pollSettingsSelect`. */
export type PollSettingsView = Prisma.CheckinGetPayload<{ select: typeof pollSettingsSelect }>;

/** Polls the actor takes part in or created (active or paused), newest first. */
export async function listPollSettings(actor: Actor, client: Tx = db): Promise<PollSettingsView[]> {
  return client.checkin.findMany({
    where: pollWhere(actor, { participants: true }),
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    select: pollSettingsSelect,
  });
}

/**
 * One poll of the actor's team that the actor takes part in or created.
 * @throws NotFoundError otherwise (other teams, archived or draft polls, standups).
 */
export async function getPollSettings(actor: Actor, id: number, client: Tx = db): Promise<PollSettingsView> {
  const row = await client.checkin.findFirst({
    where: { AND: [{ id }, pollWhere(actor, { participants: true })] },
    select: pollSettingsSelect,
  });
  if (!row) throw new NotFoundError("Poll");
  return row;
}
