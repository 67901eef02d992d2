/**
 * Polls as the dashboard shows them to the people involved (issue 10 "Polls that people answer"):
 * - `getPollOverview`: what one person may do with a poll — its creator or a team admin manages it
 *   (`canManagePoll`: live results, "Ask now"); a recipient of its current broadcast votes, and
 *   reads the results once the broadcast closed when the poll shares them (`share_results`);
 *   anyone else gets NotFound (a poll's existence is not leaked);
 * - `getPollResultsFor`: the results that person may read (lib/domain/votes.ts `getPollVotes`);
 * - `askPollNonVoters`: "Ask now" — asks again every recipient of the open broadcast who has not
 *   voted (one direct question each, through lib/domain/asking.ts `askDueBatch`);
 * - `listMyOpenPolls`: the open broadcasts the actor is asked in, for "My check-ins".
 *
 * The current broadcast is the poll's latest occurrence (date desc, id desc), the one
 * lib/domain/vote-writes.ts `castVote` records votes on. It is closed when `closed_at` is set,
 * `closes_at` has passed, or the poll is paused. Instants are UTC.
 */

import { db, inTransaction, queryRows, type Tx } from "@/lib/db";
import { canManagePoll, livePollWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { askDueBatch } from "@/lib/domain/asking";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { pollPageHeadSelect } from "@/lib/domain/polls";
import { broadcastClosed, currentBroadcastArgs } from "@/lib/domain/vote-writes";
import { getPollVotes, type PollResults } from "@/lib/domain/votes";
import { Prisma } from "@/lib/generated/prisma/client";

/** A poll as one person may use it (see the module comment). */
export type PollOverview = {
  id: number;
  name: string;
  intro: string | null;
  state: "active" | "paused";
  isAnonymous: boolean;
  shareResults: boolean;
  channelName: string | null;
  /** Members of the poll (the next broadcast's recipients). */
  memberCount: number;
  /** Creator or team admin. */
  canManage: boolean;
  /** The current broadcast, or null before the first one. */
  instance: { id: number; date: string; closesAt: Date | null; closed: boolean; recipients: number; voters: number } | null;
  /** The actor is a recipient of the current broadcast. */
  isRecipient: boolean;
  /** The actor voted in the current broadcast. */
  hasVoted: boolean;
  /** The actor may read results: managers always; recipients after closing when the poll shares them. */
  resultsVisible: boolean;
};

/** The current broadcast (`currentBroadcastArgs`) with its number of recipients. */
function overviewBroadcastArgs(userId: number) {
  const current = currentBroadcastArgs(userId);
  return { ...current, select: { ...current.select, _count: { select: { members: true } } } };
}

/**
 * A poll of the actor's team (active or paused) as the actor may use it.
 * @throws NotFoundError when the poll is not in the team, is a standup or draft/archived, or the
 *   actor neither manages it nor is a recipient of its current broadcast.
 */
export async function getPollOverview(actor: Actor, pollId: number, client: Tx = db, now: Date = new Date()): Promise<PollOverview> {
  if (!Number.isSafeInteger(pollId)) throw new NotFoundError("Poll");
  const poll = await client.checkin.findFirst({
    where: livePollWhere(actor, pollId),
    select: {
      ...pollPageHeadSelect,
      owner_id: true,
      is_anonymous: true,
      share_results: true,
      broadcast_channel: { select: { name: true } },
      _count: { select: { members: true } },
      occurrences: overviewBroadcastArgs(actor.userId),
    },
  });
  if (!poll) throw new NotFoundError("Poll");
  const canManage = canManagePoll(actor, poll);
  const inst = poll.occurrences[0];
  const isRecipient = Boolean(inst && inst.members.length > 0);
  if (!canManage && !isRecipient) throw new NotFoundError("Poll");
  // Distinct voters (a vote of an anonymous poll names no voter, only a keyed hash: issue 45) and
  // whether the actor voted (occurrence_members.voted, or a vote naming them).
  const [tally] = inst
    ? await queryRows<{ voters: number; mine: boolean }>(
        Prisma.sql`SELECT (SELECT count(DISTINCT COALESCE(v.user_id::text, v.voter_hash))::int FROM votes v WHERE v.occurrence_id = ${inst.id}) AS voters,
          EXISTS (SELECT 1 FROM occurrence_members om WHERE om.occurrence_id = ${inst.id} AND om.user_id = ${actor.userId} AND om.voted)
            OR EXISTS (SELECT 1 FROM votes v WHERE v.occurrence_id = ${inst.id} AND v.user_id = ${actor.userId}) AS mine`,
        client,
      )
    : [{ voters: 0, mine: false }];
  const closed = Boolean(inst && (poll.state !== "active" || broadcastClosed(inst, now)));
  return {
    id: poll.id,
    name: poll.name,
    intro: poll.intro,
    state: poll.state === "paused" ? "paused" : "active",
    isAnonymous: poll.is_anonymous,
    shareResults: poll.share_results,
    channelName: poll.broadcast_channel?.name ?? null,
    memberCount: poll._count.members,
    canManage,
    instance: inst
      ? {
          id: inst.id,
          date: inst.date.toISOString().slice(0, 10),
          closesAt: inst.closes_at,
          closed,
          recipients: inst._count.members,
          voters: tally.voters,
        }
      : null,
    isRecipient,
    hasVoted: tally.mine,
    resultsVisible: canManage || (isRecipient && closed && poll.share_results),
  };
}

/**
 * The results the actor may read: for a manager every broadcast of the last year (live, the open
 * one included); for a recipient of a closed broadcast of a poll that shares results, that
 * broadcast only. Voters are null when the poll is anonymous (as everywhere).
 * @throws NotFoundError when `getPollOverview` does, or the actor may not read results yet.
 */
export async function getPollResultsFor(actor: Actor, pollId: number, client: Tx = db, now: Date = new Date()): Promise<PollResults> {
  const overview = await getPollOverview(actor, pollId, client, now);
  if (overview.canManage) {
    const since = new Date(now.getTime() - 365 * 86_400_000);
    return getPollVotes(actor, pollId, { since, until: new Date(now.getTime() + 86_400_000) }, { access: "manager", now }, client);
  }
  if (!overview.resultsVisible) throw new NotFoundError("Poll results");
  return getPollVotes(actor, pollId, {}, { access: "creator_or_member", now }, client);
}

/**
 * "Ask now" on a poll: every recipient of the open current broadcast who has not voted and is not
 * excused that day gets the direct question again (with the vote link), now.
 * @returns the ids of the members asked, ascending (empty when everybody voted).
 * @throws NotFoundError (as `getPollOverview`), ForbiddenError (a recipient who is not a manager),
 *   ConflictError POLL_CLOSED (no open broadcast: closed, paused or never broadcast).
 */
export async function askPollNonVoters(actor: Actor, pollId: number, tx?: Tx, now: Date = new Date()): Promise<number[]> {
  return inTransaction(tx, async (t) => {
    const overview = await getPollOverview(actor, pollId, t, now);
    if (!overview.canManage) throw new ForbiddenError("Only the creator of this poll or a team admin can ask again");
    if (!overview.instance || overview.instance.closed) throw new ConflictError("This poll has no open broadcast", "POLL_CLOSED");
    const occurrenceId = overview.instance.id;
    await t.$executeRaw`
      UPDATE occurrence_members om SET asked_at = NULL, due_at = ${now}
      WHERE om.occurrence_id = ${occurrenceId} AND om.excused IS NULL
        AND NOT om.voted AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.occurrence_id = om.occurrence_id AND v.user_id = om.user_id)`;
    const asked = await askDueBatch(t, now, { occurrenceIds: [occurrenceId] });
    return asked.map((a) => a.userId).sort((x, y) => x - y);
  });
}

/** An open poll broadcast the actor is asked in (My check-ins). */
export type MyOpenPoll = { pollId: number; name: string; occurrenceId: number; date: string; closesAt: Date | null; voted: boolean };

/**
 * The open current broadcasts of active polls of the actor's team in which the actor is a
 * recipient, closing soonest first (no closing time last), with whether the actor voted.
 */
export async function listMyOpenPolls(actor: Actor, client: Tx = db, now: Date = new Date()): Promise<MyOpenPoll[]> {
  const rows = await queryRows<{
    poll_id: number;
    name: string;
    occurrence_id: number;
    date: string;
    closes_at: Date | null;
    voted: boolean;
  }>(
    Prisma.sql`
    SELECT c.id AS poll_id, c.name, o.id AS occurrence_id, to_char(o.date, 'YYYY-MM-DD') AS date, o.closes_at,
           (om.voted OR EXISTS (SELECT 1 FROM votes v WHERE v.occurrence_id = o.id AND v.user_id = ${actor.userId})) AS voted
    FROM checkins c
    JOIN LATERAL (SELECT * FROM occurrences lo WHERE lo.checkin_id = c.id ORDER BY lo.date DESC, lo.id DESC LIMIT 1) o ON TRUE
    JOIN occurrence_members om ON om.occurrence_id = o.id AND om.user_id = ${actor.userId}
    WHERE c.team_id = ${actor.teamId} AND c.kind = 'poll' AND c.state = 'active'
      AND o.closed_at IS NULL AND (o.closes_at IS NULL OR o.closes_at > ${now})
    ORDER BY o.closes_at ASC NULLS LAST, c.id ASC`,
    client,
  );
  return rows.map((r) => ({
    pollId: r.poll_id,
    name: r.name,
    occurrenceId: r.occurrence_id,
    date: r.date,
    closesAt: r.closes_at,
    voted: r.voted,
  }));
}
