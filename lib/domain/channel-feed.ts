/**
 * The channel feed of the built-in chat "platform" (lib/chat/builtin.ts): the outbox rows ARE the
 * channel messages, and the dashboard reads them here. This keeps the whole loop working offline
 * (ARCHITECTURE §4).
 *
 * The feed: what was broadcast to the team's channels (reports, polls,
 * reminders), read from the `chat_messages` outbox, newest first with keyset paging. Direct
 * questions (recipient set, no channel) are not part of a channel feed. Messages about a
 * confidential standup are shown only to its creator; deleted messages are hidden.
 */
import { db, type Tx } from "@/lib/db";
import { channelMessageWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import type { Prisma } from "@/lib/generated/prisma/client";

export type ChannelSummary = { id: number; chatId: string; name: string; topic: string | null; memberCount: number };

export type FeedMessage = {
  id: number;
  ts: string;
  kind: "report" | "poll" | "question" | "reminder" | "poll_results" | "digest";
  channel: { chatId: string; name: string } | null;
  text: string;
  createdAt: Date;
  updatedAt: Date;
  deliveryState: "pending" | "delivered" | "failed" | "held";
  /** Why the last delivery attempt failed (kept while retrying). */
  deliveryError: string | null;
  checkinName: string | null;
};

/** Channels of the actor's team, by name. */
export async function listTeamChannels(actor: Actor, tx: Tx = db): Promise<ChannelSummary[]> {
  const rows = await tx.channel.findMany({
    where: { team_id: actor.teamId },
    orderBy: { name: "asc" },
    select: { id: true, chat_id: true, name: true, topic: true, _count: { select: { members: true } } },
  });
  return rows.map((c) => ({ id: c.id, chatId: c.chat_id, name: c.name, topic: c.topic, memberCount: c._count.members }));
}

/**
 * Channel messages of the team, newest first.
 * @param input.channel optional channel chat id to narrow the feed.
 * @param input.before keyset position (id of the last message of the previous page).
 * @returns up to `limit` messages and whether more exist.
 */
export async function listChannelFeed(
  actor: Actor,
  input: { channel?: string; before?: number; limit?: number } = {},
  tx: Tx = db,
): Promise<{ messages: FeedMessage[]; hasMore: boolean }> {
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 100);
  const where: Prisma.ChatMessageWhereInput = {
    ...channelMessageWhere(actor),
    channel_id: { not: null },
    deleted_at: null,
    // An anonymous report's broadcast held until k people answered its run (issue 45) is not posted yet.
    delivery_state: { not: "held" },
    ...(input.channel ? { channel: { chat_id: input.channel } } : {}),
    ...(input.before ? { id: { lt: input.before } } : {}),
  };
  const rows = await tx.chatMessage.findMany({
    where,
    orderBy: [{ id: "desc" }],
    take: limit + 1,
    select: {
      id: true,
      ts: true,
      kind: true,
      text: true,
      created_at: true,
      updated_at: true,
      delivery_state: true,
      delivery_error: true,
      channel: { select: { chat_id: true, name: true } },
      checkin: { select: { name: true } },
    },
  });
  return {
    hasMore: rows.length > limit,
    messages: rows.slice(0, limit).map((m) => ({
      id: m.id,
      ts: m.ts,
      kind: m.kind,
      channel: m.channel ? { chatId: m.channel.chat_id, name: m.channel.name } : null,
      text: m.text,
      createdAt: m.created_at,
      updatedAt: m.updated_at,
      deliveryState: m.delivery_state,
      deliveryError: m.delivery_error,
      checkinName: m.checkin?.name ?? null,
    })),
  };
}
