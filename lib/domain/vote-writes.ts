/**
 * Voting on polls (issue 10 "Polls that people answer"): the one write path behind
 * `POST /v2/polls/{pollId}/votes` (a v2 extension), the dashboard's vote form and Slack's poll
 * buttons. Results are read by lib/domain/votes.ts.
 *
 * Rules:
 * - A vote goes to the poll's current instance (its latest broadcast: date desc, id desc).
 * - Only recipients of that instance (its member snapshot) vote; anyone else gets NotFound, so a
 *   poll's existence is not leaked (the creator votes only when also a recipient).
 * - A closed instance (`closed_at` set or `closes_at` passed) or a paused poll: ConflictError
 *   `POLL_CLOSED`.
 * - Multiple-choice answers give `choices` by their text as in the poll's question; an unknown
 *   label is UnprocessableError `UNKNOWN_CHOICE` unless the question allows adding one's own
 *   options (`add_own_options`); more than one choice where `one_option_limit` is set is
 *   `TOO_MANY_CHOICES`. Open-ended answers give `text`.
 * - One vote per recipient per question: voting again (while open) replaces that question's
 *   previous vote; questions not named in the call keep theirs. Concurrent votes of one recipient
 *   are serialised by a row lock on their occurrence_members row.
 * - Anonymous polls store the voter (needed for "one vote per recipient") but no read shows it.
 */
import { db, inTransaction, queryRows, type Tx } from "@/lib/db";
import { livePollWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { onOpenEndedResponse } from "@/lib/domain/categories";
import { ConflictError, InvalidParameterError, NotFoundError, UnprocessableError } from "@/lib/domain/errors";
import { pollPageHeadSelect, pollQuestionSelect } from "@/lib/domain/polls";
import { currentQuestionsSelect } from "@/lib/domain/standups";
import { ownVotesWhere, voterHash } from "@/lib/domain/voter-hash";
import { Prisma } from "@/lib/generated/prisma/client";

/** One answer of a vote: choices (multiple-choice) or text (open-ended), by question id. */
export type VoteAnswerInput = { questionId: number; choices?: string[]; text?: string };

/** Input of `castVote`. */
export type CastVoteInput = { pollId: number; answers: VoteAnswerInput[] };

/** What was recorded: the instance and, per answered question, the stored choices or text. */
export type CastVoteResult = {
  pollId: number;
  instanceId: number;
  date: string;
  votedAt: Date;
  answers: Array<{ questionId: number; choices: string[] | null; text: string | null }>;
};

const MAX_DB_ID = 2_147_483_647;
const MAX_TEXT = 4_000;
const MAX_OWN_OPTION = 200;

type PollQuestion = { id: number; answer_type: string; choices: string[]; add_own_options: boolean; one_option_limit: boolean };

/** Checks one answer against its question; returns the rows to store. @throws InvalidParameterError, UnprocessableError */
function normaliseAnswer(q: PollQuestion, a: VoteAnswerInput): { choices: string[] | null; text: string | null } {
  if (q.answer_type === "multiple_choice") {
    if (a.text !== undefined) throw new InvalidParameterError(`answers: question_id ${q.id} is multiple-choice; give choices, not text`);
    if (!Array.isArray(a.choices) || a.choices.length === 0)
      throw new InvalidParameterError(`answers: question_id ${q.id} needs at least one choice`);
    const picked = [...new Set(a.choices.map((c) => (typeof c === "string" ? c.trim() : "")))];
    if (picked.some((c) => !c)) throw new InvalidParameterError(`answers: choices of question_id ${q.id} must be non-empty strings`);
    if (q.one_option_limit && picked.length > 1)
      throw new UnprocessableError(`question_id ${q.id} allows one choice only`, "TOO_MANY_CHOICES");
    for (const c of picked) {
      if (q.choices.includes(c)) continue;
      if (!q.add_own_options) throw new UnprocessableError(`question_id ${q.id} has no choice "${c}"`, "UNKNOWN_CHOICE");
      if (c.length > MAX_OWN_OPTION) throw new InvalidParameterError(`answers: an own option is ${MAX_OWN_OPTION} characters at most`);
    }
    return { choices: picked, text: null };
  }
  if (a.choices !== undefined) throw new InvalidParameterError(`answers: question_id ${q.id} is open-ended; give text, not choices`);
  const text = typeof a.text === "string" ? a.text.trim() : "";
  if (!text) throw new InvalidParameterError(`answers: question_id ${q.id} needs a non-empty text`);
  if (text.length > MAX_TEXT) throw new InvalidParameterError(`answers: text is ${MAX_TEXT} characters at most`);
  return { choices: null, text };
}

/**
 * Records the actor's vote on the current instance of a poll (see the module rules), in one
 * transaction (the caller's when passed).
 * @throws NotFoundError (no such poll in the team, draft/archived, no instance yet, actor not a
 *   recipient), ConflictError POLL_CLOSED, UnprocessableError UNKNOWN_CHOICE / TOO_MANY_CHOICES,
 *   InvalidParameterError (empty answers, unknown or repeated question_id, wrong answer form).
 */
export async function castVote(actor: Actor, input: CastVoteInput, tx?: Tx, now: Date = new Date()): Promise<CastVoteResult> {
  if (!Number.isInteger(input.pollId) || input.pollId < 1 || input.pollId > MAX_DB_ID) throw new NotFoundError("Poll");
  if (!Array.isArray(input.answers) || input.answers.length === 0)
    throw new InvalidParameterError("answers: at least one answer is required");
  return inTransaction(tx, async (t) => {
    const poll = await t.checkin.findFirst({
      where: livePollWhere(actor, input.pollId),
      select: {
        id: true,
        state: true,
        is_anonymous: true,
        questions: {
          where: { archived_at: null },
          select: { id: true, answer_type: true, choices: true, add_own_options: true, one_option_limit: true },
        },
      },
    });
    if (!poll) throw new NotFoundError("Poll");
    const instances = await queryRows<{ id: number; date: string; closes_at: Date | null; closed_at: Date | null }>(
      Prisma.sql`SELECT o.id, to_char(o.date, 'YYYY-MM-DD') AS date, o.closes_at, o.closed_at FROM occurrences o
      WHERE o.checkin_id = ${poll.id} ORDER BY o.date DESC, o.id DESC LIMIT 1`,
      t,
    );
    const instance = instances[0];
    if (!instance) throw new NotFoundError("Poll");
    const recipient = await queryRows<{ user_id: number }>(
      Prisma.sql`SELECT user_id FROM occurrence_members WHERE occurrence_id = ${instance.id} AND user_id = ${actor.userId} FOR UPDATE`,
      t,
    );
    if (!recipient.length) throw new NotFoundError("Poll");
    if (poll.state !== "active") throw new ConflictError("This poll is paused and does not accept votes", "POLL_CLOSED");
    if (broadcastClosed(instance, now)) {
      throw new ConflictError("This poll is closed", "POLL_CLOSED");
    }

    const byId = new Map(poll.questions.map((q) => [q.id, q]));
    const seen = new Set<number>();
    const answers = input.answers.map((a) => {
      const q = byId.get(a.questionId);
      if (!q) throw new InvalidParameterError(`answers: question_id ${String(a.questionId)} does not belong to this poll`);
      if (seen.has(q.id)) throw new InvalidParameterError(`answers: question_id ${q.id} is answered more than once`);
      seen.add(q.id);
      return { questionId: q.id, ...normaliseAnswer(q, a) };
    });

    const questionIds = answers.map((a) => a.questionId);
    // An anonymous poll's vote keeps only a keyed hash of its voter (lib/domain/voter-hash.ts, issue 45).
    const own = await ownVotesWhere(instance.id, actor.userId, poll.is_anonymous, t);
    const voter = poll.is_anonymous
      ? { user_id: null, voter_hash: await voterHash(instance.id, actor.userId, t) }
      : { user_id: actor.userId, voter_hash: null };
    await t.vote.deleteMany({ where: { ...own, question_id: { in: questionIds } } });
    await t.$executeRaw`UPDATE occurrence_members SET voted = true WHERE occurrence_id = ${instance.id} AND user_id = ${actor.userId}`;
    await t.vote.createMany({
      data: answers.flatMap((a) =>
        (a.choices ?? [null]).map((choice) => ({
          team_id: actor.teamId,
          occurrence_id: instance.id,
          question_id: a.questionId,
          ...voter,
          choice,
          text: a.text,
          categories: [],
          created_at: now,
        })),
      ),
    });
    // Open-ended answers (re)start the debounced categorization of their question (issue 15).
    for (const a of answers) {
      if (a.text !== null) await onOpenEndedResponse(t, { occurrenceId: instance.id, questionId: a.questionId, teamId: actor.teamId });
    }
    return { pollId: poll.id, instanceId: instance.id, date: instance.date, votedAt: now, answers };
  });
}

/**
 * The Prisma `occurrences` argument that loads a poll's current broadcast (its latest occurrence,
 * the one votes go to) with `members` holding `userId`'s row when they are a recipient.
 */
export function currentBroadcastArgs(userId: number) {
  return {
    orderBy: [{ date: "desc" as const }, { id: "desc" as const }],
    take: 1,
    select: {
      id: true,
      date: true,
      closes_at: true,
      closed_at: true,
      members: { where: { user_id: userId }, select: { user_id: true } },
    },
  };
}

/** Whether a broadcast no longer takes votes at `now` (UTC): closed, or past its `closes_at`. */
export function broadcastClosed(instance: { closed_at: Date | null; closes_at: Date | null }, now: Date): boolean {
  return instance.closed_at !== null || (instance.closes_at !== null && instance.closes_at.getTime() <= now.getTime());
}

/** What a recipient sees on the vote form: the current broadcast, its questions and their own vote. */
export type Ballot = {
  pollId: number;
  name: string;
  intro: string | null;
  instanceId: number;
  date: string;
  closesAt: Date | null;
  /** Closed broadcast or paused poll: the form is read-only. */
  closed: boolean;
  questions: Array<PollQuestion & { text: string; mine: { choices: string[]; text: string | null } }>;
};

/**
 * The ballot of the current broadcast of a poll for one of its recipients (dashboard vote form).
 * @throws NotFoundError when the poll is not in the team, draft/archived, has no broadcast, or the
 *   actor is not a recipient of its current broadcast.
 */
export async function getBallot(actor: Actor, pollId: number, tx: Tx = db, now: Date = new Date()): Promise<Ballot> {
  const poll = await tx.checkin.findFirst({
    where: livePollWhere(actor, pollId),
    select: {
      ...pollPageHeadSelect,
      is_anonymous: true,
      questions: currentQuestionsSelect(pollQuestionSelect),
      occurrences: currentBroadcastArgs(actor.userId),
    },
  });
  const instance = poll?.occurrences[0];
  if (!poll || !instance || instance.members.length === 0) throw new NotFoundError("Poll");
  const votes = await tx.vote.findMany({
    where: await ownVotesWhere(instance.id, actor.userId, poll.is_anonymous, tx),
    orderBy: { id: "asc" },
    select: { question_id: true, choice: true, text: true },
  });
  return {
    pollId: poll.id,
    name: poll.name,
    intro: poll.intro,
    instanceId: instance.id,
    date: instance.date.toISOString().slice(0, 10),
    closesAt: instance.closes_at,
    closed: poll.state !== "active" || broadcastClosed(instance, now),
    questions: poll.questions.map((q) => {
      const mine = votes.filter((v) => v.question_id === q.id);
      return {
        ...q,
        mine: { choices: mine.flatMap((v) => (v.choice ? [v.choice] : [])), text: mine.find((v) => v.text)?.text ?? null },
      };
    }),
  };
}

/**
 * For forms: which question a `castVote` error is about (parsed from the `question_id N` its
 * messages name; null for errors about the whole vote, e.g. POLL_CLOSED) and a message for people.
 */
export function describeVoteError(err: Error): { questionId: number | null; message: string } {
  const m = /question_id (\d+)/.exec(err.message);
  const questionId = m ? Number(m[1]) : null;
  const detail = (err as { detailCode?: string }).detailCode;
  let message = err.message;
  if (detail === "TOO_MANY_CHOICES") message = "Choose one option only.";
  else if (detail === "UNKNOWN_CHOICE") message = "That option is not offered here.";
  else if (detail === "POLL_CLOSED") message = "This poll is closed: your vote was not recorded.";
  else if (/needs at least one choice/.test(err.message)) message = "Choose an option.";
  else if (/needs a non-empty text/.test(err.message)) message = "Write an answer.";
  else if (/characters at most/.test(err.message)) message = err.message.replace(/^answers: /, "").replace(/^./, (c) => c.toUpperCase());
  return { questionId, message };
}
