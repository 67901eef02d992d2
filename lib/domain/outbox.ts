/**
 * The chat outbox (spec §6, issue #3 "Side effects"): lib/domain/outbox*.ts are the ONLY writers
 * of `chat_messages` rows — this module (channel posts, digests, direct questions and reminders,
 * the seed's history), lib/domain/outbox-reports.ts (report broadcasts: write, edit, remove, hold,
 * release) and lib/domain/outbox-polls.ts (poll broadcasts and results). Every message is written
 * in the caller's transaction (the report writes' CTE chains embed `reportBroadcastInsertSql` /
 * `reportBroadcastEditSql` in their one statement), so a committed change always has its message
 * recorded and a rolled-back one leaves none. Every row written or put back to
 * `delivery_state = pending` enqueues its destination's `deliver_chat_destination` job in that
 * same transaction (the `chat_messages_enqueue_delivery` trigger, migration
 * `*_delivery_by_destination`, through the job outbox of lib/jobs/outbox.ts: one job per
 * channel/recipient, lib/chat/destination-drain.ts), so whatever kind of message is written here
 * is delivered (lib/chat/delivery.ts); an updated or removed message is put back to `pending` so
 * the job updates / deletes it on the platform. The built-in channel feed reads the rows directly
 * (`deleted_at` null = visible, lib/domain/channel-feed.ts).
 *
 * Message bodies are plain text (no markup). `ts` (spec `chat_ts`) comes from `newChatTs()`.
 */
import type { Tx } from "@/lib/db";
import { newChatTs } from "@/lib/domain/chat-ts";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The outbox row of a broadcast: its id and `ts` (the `chat_ts` updates and deletes refer to). */
export type BroadcastRef = { id: number; ts: string; channel_id: number | null };

const broadcastRefSelect = { id: true, ts: true, channel_id: true } satisfies Prisma.ChatMessageSelect;

/** One message to a channel about a checkin's occurrence (or report), as `postToChannel` writes it. */
export type ChannelPost = {
  teamId: number;
  kind: "report" | "poll" | "digest" | "poll_results";
  channelId: number;
  checkinId: number;
  occurrenceId: number | null;
  /** The report a `report` post shows. */
  reportId?: number;
  text: string;
  /** Stamps `created_at` with this instant instead of the database default. */
  createdAt?: Date;
};

/** Writes one channel post to the outbox (`ts` from `now`). @returns the new row's ref. */
export function postToChannel(tx: Tx, post: ChannelPost, now: Date): Promise<BroadcastRef> {
  return tx.chatMessage.create({
    data: {
      team_id: post.teamId,
      ts: newChatTs(now),
      kind: post.kind,
      channel_id: post.channelId,
      checkin_id: post.checkinId,
      occurrence_id: post.occurrenceId,
      report_id: post.reportId,
      text: post.text,
      created_at: post.createdAt,
    },
    select: broadcastRefSelect,
  });
}

/**
 * Posts an occurrence summary to its standup's broadcast channel (kind `digest`, issue 15), once
 * per occurrence: a second call for the same occurrence returns the existing row.
 * @returns the outbox row.
 */
export async function broadcastDigest(
  tx: Tx,
  input: { teamId: number; standupId: number; occurrenceId: number; channelId: number; text: string },
  now: Date = new Date(),
): Promise<BroadcastRef> {
  const existing = await tx.chatMessage.findFirst({
    where: { occurrence_id: input.occurrenceId, kind: "digest", deleted_at: null },
    select: broadcastRefSelect,
  });
  if (existing) return existing;
  return postToChannel(tx, { ...input, kind: "digest", checkinId: input.standupId }, now);
}

/** One direct question to a member (kind `question`, no channel): the start of their report. */
export type DirectQuestion = { userId: number; reportId: number | null };

/**
 * Queues direct questions of one occurrence (kind `question`, `recipient_id` set, no channel),
 * one per member, with the text of the first question. Used by `askMembers`
 * (lib/domain/occurrences.ts).
 * @returns the number of messages queued.
 */
export async function queueDirectQuestions(
  tx: Tx,
  input: { teamId: number; checkinId: number; occurrenceId: number; text: string; to: DirectQuestion[] },
  now: Date = new Date(),
): Promise<number> {
  if (input.to.length === 0) return 0;
  const r = await tx.chatMessage.createMany({
    data: input.to.map((q) => ({
      team_id: input.teamId,
      ts: newChatTs(now),
      kind: "question" as const,
      channel_id: null,
      recipient_id: q.userId,
      checkin_id: input.checkinId,
      occurrence_id: input.occurrenceId,
      report_id: q.reportId,
      text: input.text,
    })),
  });
  return r.count;
}

/** A direct message to one member about one occurrence: its question or a reminder (issue 10). */
export type DirectMessage = {
  kind: "question" | "reminder";
  teamId: number;
  recipientId: number;
  checkinId: number;
  occurrenceId: number;
  reportId: number | null;
  text: string;
};

/**
 * Queues direct messages (kind `question` or `reminder`, `recipient_id` set, no channel) in one
 * statement (the delivery adapters add the answer button from the occurrence). Used by the asking and reminder passes
 * (lib/domain/asking.ts, lib/domain/reminders.ts).
 * @returns the number of messages queued.
 */
export async function queueDirectMessages(tx: Tx, messages: DirectMessage[], now: Date = new Date()): Promise<number> {
  if (messages.length === 0) return 0;
  const r = await tx.chatMessage.createMany({
    data: messages.map((m) => ({
      team_id: m.teamId,
      ts: newChatTs(now),
      kind: m.kind,
      channel_id: null,
      recipient_id: m.recipientId,
      checkin_id: m.checkinId,
      occurrence_id: m.occurrenceId,
      report_id: m.reportId,
      text: m.text,
      created_at: now,
    })),
  });
  return r.count;
}

/**
 * Writes already-delivered historical messages in bulk (the demo seed's history: rows carry their
 * own `ts`, timestamps and delivery state).
 * @returns the number of rows written.
 */
export async function recordHistoricalMessages(tx: Tx, rows: Prisma.ChatMessageCreateManyInput[]): Promise<number> {
  if (rows.length === 0) return 0;
  return (await tx.chatMessage.createMany({ data: rows })).count;
}
