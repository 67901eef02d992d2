/**
 * The lifecycle of a poll (issue 41 item 10), for its creator or a team admin (`canManagePoll`):
 * - `closePollNow`: closes the open broadcast now (results posted, `poll.closed` event), through
 *   the same closing path as the scheduler (lib/domain/occurrence-close.ts `closeDueBatch`);
 * - `editPoll`: renames it, rewords a question while nobody has voted on the poll, and moves the
 *   open broadcast's closing time (must be in the future);
 * - `setPollPaused`: pauses (no broadcast, no votes, no next run) or resumes it;
 * - `deletePoll`: archives it (the API then answers 404 as for any archived poll, spec §3).
 * Messages are written for people: they name the field as the dashboard labels it.
 */

import { db, inTransaction, type Tx } from "@/lib/db";
import { canManagePoll, livePollWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { refreshNextRunAt } from "@/lib/domain/asking-times";
import { ConflictError, ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";
import { closeDueBatch } from "@/lib/domain/occurrence-close";

/** The poll the actor manages, locked for update. @throws NotFoundError, ForbiddenError */
async function managedPoll(t: Tx, actor: Actor, pollId: number) {
  if (!Number.isSafeInteger(pollId)) throw new NotFoundError("Poll");
  const poll = await t.checkin.findFirst({
    where: livePollWhere(actor, pollId),
    select: { id: true, owner_id: true, state: true, name: true },
  });
  if (!poll) throw new NotFoundError("Poll");
  if (!canManagePoll(actor, poll)) throw new ForbiddenError("Only the creator of this poll or a team admin can change it");
  await t.$executeRaw`SELECT 1 FROM checkins WHERE id = ${poll.id} FOR UPDATE`;
  return poll;
}

/** The open broadcasts (not closed, closing time not passed) of a poll. */
async function openBroadcastIds(t: Tx, pollId: number, now: Date): Promise<number[]> {
  const rows = await t.occurrence.findMany({
    where: { checkin_id: pollId, closed_at: null, OR: [{ closes_at: null }, { closes_at: { gt: now } }] },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * "Close now": closes the poll's open broadcast at `now` (results posted to the channel,
 * `poll.closed` event), as if its closing time had come.
 * @returns the ids of the broadcasts closed.
 * @throws NotFoundError, ForbiddenError, ConflictError POLL_CLOSED (nothing open).
 */
export async function closePollNow(actor: Actor, pollId: number, tx?: Tx, now: Date = new Date()): Promise<number[]> {
  return inTransaction(tx, async (t) => {
    const poll = await managedPoll(t, actor, pollId);
    const open = await openBroadcastIds(t, poll.id, now);
    if (open.length === 0) throw new ConflictError("This poll is already closed", "POLL_CLOSED");
    await t.occurrence.updateMany({ where: { id: { in: open } }, data: { closes_at: now } });
    const closed = await closeDueBatch(t, now, { teamId: actor.teamId });
    return closed.filter((o) => open.includes(o.id)).map((o) => o.id);
  });
}

/** What `editPoll` changes (absent: unchanged). */
export type EditPollInput = {
  name?: string;
  /** New wording per question id (allowed only while nobody voted on the poll). */
  questionTexts?: Record<number, string>;
  /** New closing time of the open broadcast (future), or null for "open until closed by hand". */
  closesAt?: Date | null;
};

/**
 * Edits a poll: name, question wording (while it has no votes) and the open broadcast's closing time.
 * @throws NotFoundError, ForbiddenError, InvalidParameterError (empty/too long name or question,
 *   closing time not in the future), ConflictError POLL_HAS_VOTES (rewording after votes),
 *   POLL_CLOSED (a closing time while no broadcast is open).
 */
export async function editPoll(actor: Actor, pollId: number, input: EditPollInput, tx?: Tx, now: Date = new Date()): Promise<void> {
  await inTransaction(tx, async (t) => {
    const poll = await managedPoll(t, actor, pollId);
    if (input.name !== undefined) {
      const name = input.name.trim();
      if (!name) throw new InvalidParameterError("Name: enter a name for the poll.");
      if (name.length > LIMITS.name) throw new InvalidParameterError(`Name: use at most ${LIMITS.name} characters.`);
      await t.checkin.update({ where: { id: poll.id }, data: { name } });
    }
    const texts = Object.entries(input.questionTexts ?? {});
    if (texts.length) {
      const current = await t.question.findMany({ where: { checkin_id: poll.id, archived_at: null }, select: { id: true, text: true } });
      const changed = texts.filter(([id, text]) => current.find((q) => q.id === Number(id))?.text !== text.trim());
      if (changed.length) {
        if ((await t.vote.count({ where: { occurrence: { checkin_id: poll.id } } })) > 0)
          throw new ConflictError("Question: people have already voted, so the question can no longer be reworded.", "POLL_HAS_VOTES");
        for (const [id, raw] of changed) {
          const text = raw.trim();
          if (!current.some((q) => q.id === Number(id))) throw new NotFoundError("Question");
          if (!text) throw new InvalidParameterError("Question: enter the question.");
          if (text.length > LIMITS.questionText)
            throw new InvalidParameterError(`Question: use at most ${LIMITS.questionText} characters.`);
          await t.question.update({ where: { id: Number(id) }, data: { text } });
        }
      }
    }
    if (input.closesAt !== undefined) {
      if (input.closesAt && !(input.closesAt.getTime() > now.getTime()))
        throw new InvalidParameterError("Closes at: pick a time in the future, or use Close now.");
      const open = await openBroadcastIds(t, poll.id, now);
      if (open.length === 0) throw new ConflictError("Closes at: this poll has no open broadcast to change.", "POLL_CLOSED");
      await t.occurrence.updateMany({ where: { id: { in: open } }, data: { closes_at: input.closesAt } });
    }
  });
}

/**
 * Pauses (`paused`: no votes, no scheduled broadcast) or resumes (`active`) a poll; the next
 * scheduled run is recomputed. Idempotent.
 * @throws NotFoundError, ForbiddenError
 */
export async function setPollPaused(actor: Actor, pollId: number, paused: boolean, tx?: Tx, now: Date = new Date()): Promise<void> {
  await inTransaction(tx, async (t) => {
    const poll = await managedPoll(t, actor, pollId);
    const state = paused ? "paused" : "active";
    if (poll.state === state) return;
    await t.checkin.update({ where: { id: poll.id }, data: { state } });
    await refreshNextRunAt(poll.id, t, now);
  });
}

/**
 * Deletes a poll: archived (hidden everywhere, no more broadcasts); its open broadcast is closed
 * without posting results.
 * @throws NotFoundError, ForbiddenError
 */
export async function deletePoll(actor: Actor, pollId: number, tx?: Tx, now: Date = new Date()): Promise<void> {
  await inTransaction(tx, async (t) => {
    const poll = await managedPoll(t, actor, pollId);
    await t.checkin.update({ where: { id: poll.id }, data: { state: "archived", next_run_at: null } });
    await t.occurrence.updateMany({ where: { checkin_id: poll.id, closed_at: null }, data: { closed_at: now } });
  });
}

/** Whether anyone voted on the poll (the question wording is then fixed). */
export async function pollHasVotes(pollId: number, client: Tx = db): Promise<boolean> {
  return (await client.vote.count({ where: { occurrence: { checkin_id: pollId } } })) > 0;
}

/** A poll as the Polls list shows it (issue 41 item 10). */
export type PollCard = {
  id: number;
  name: string;
  state: "active" | "paused";
  isAnonymous: boolean;
  channelName: string | null;
  memberCount: number;
  firstQuestion: string | null;
  /** Recurring polls: local time on days in timezone; null for a one-shot poll. */
  schedule: { days: string[]; time: string; timezone: string } | null;
  /** The next scheduled broadcast (recurring, active), else null. */
  nextRunAt: Date | null;
  /** "open" while its latest broadcast takes votes, "closed" after, "none" before the first. */
  status: "open" | "closed" | "none";
  createdAt: Date;
  /** The actor manages it (creator or team admin). */
  canManage: boolean;
};

/**
 * The polls of the Polls page: `managed` — those the actor created (and, for a team admin, every
 * poll of the team); `asked` — the others the actor was asked in (a recipient of any broadcast).
 * Active and paused only, newest first.
 */
export async function listPollCards(
  actor: Actor,
  client: Tx = db,
  now: Date = new Date(),
): Promise<{ managed: PollCard[]; asked: PollCard[] }> {
  const rows = await client.checkin.findMany({
    where: {
      team_id: actor.teamId,
      kind: "poll",
      state: { in: ["active", "paused"] },
      OR: [{ owner_id: actor.userId }, { occurrences: { some: { members: { some: { user_id: actor.userId } } } } }],
    },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: 200,
    select: {
      id: true,
      name: true,
      state: true,
      owner_id: true,
      is_anonymous: true,
      time: true,
      days: true,
      timezone: true,
      recurrence: true,
      next_run_at: true,
      created_at: true,
      broadcast_channel: { select: { name: true } },
      _count: { select: { members: true } },
      questions: { where: { archived_at: null }, orderBy: [{ position: "asc" }, { id: "asc" }], take: 1, select: { text: true } },
      occurrences: { orderBy: [{ date: "desc" }, { id: "desc" }], take: 1, select: { closed_at: true, closes_at: true } },
    },
  });
  const cards = rows.map((p): PollCard => {
    const recurring = (p.recurrence as { type?: string } | null)?.type === "weekly";
    const inst = p.occurrences[0];
    const status = !inst ? "none" : inst.closed_at || (inst.closes_at && inst.closes_at <= now) || p.state !== "active" ? "closed" : "open";
    return {
      id: p.id,
      name: p.name,
      state: p.state === "paused" ? "paused" : "active",
      isAnonymous: p.is_anonymous,
      channelName: p.broadcast_channel?.name ?? null,
      memberCount: p._count.members,
      firstQuestion: p.questions[0]?.text ?? null,
      schedule: recurring ? { days: p.days, time: p.time.slice(0, 5), timezone: p.timezone } : null,
      nextRunAt: recurring && p.state === "active" ? p.next_run_at : null,
      status,
      createdAt: p.created_at,
      canManage: canManagePoll(actor, p),
    };
  });
  return { managed: cards.filter((c) => c.canManage), asked: cards.filter((c) => !c.canManage) };
}

/** What the poll page's management card needs: schedule, next run, questions and whether anyone voted. */
export type PollManagement = {
  schedule: PollCard["schedule"];
  nextRunAt: Date | null;
  questions: Array<{ id: number; text: string }>;
  hasVotes: boolean;
};

/** The management details of a poll the actor manages. @throws NotFoundError, ForbiddenError */
export async function getPollManagement(actor: Actor, pollId: number, client: Tx = db): Promise<PollManagement> {
  if (!Number.isSafeInteger(pollId)) throw new NotFoundError("Poll");
  const p = await client.checkin.findFirst({
    where: livePollWhere(actor, pollId),
    select: {
      owner_id: true,
      state: true,
      recurrence: true,
      days: true,
      time: true,
      timezone: true,
      next_run_at: true,
      questions: { where: { archived_at: null }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true, text: true } },
    },
  });
  if (!p) throw new NotFoundError("Poll");
  if (!canManagePoll(actor, p)) throw new ForbiddenError("Only the creator of this poll or a team admin can change it");
  const recurring = (p.recurrence as { type?: string } | null)?.type === "weekly";
  return {
    schedule: recurring ? { days: p.days, time: p.time.slice(0, 5), timezone: p.timezone } : null,
    nextRunAt: recurring && p.state === "active" ? p.next_run_at : null,
    questions: p.questions,
    hasVotes: await pollHasVotes(pollId, client),
  };
}
