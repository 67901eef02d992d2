/**
 * Channels of a team (ARCHITECTURE §3): resolving the `broadcast_channel` / `sync_channel` /
 * `channel` references of the write endpoints (spec §4.2 POST /v2/standups and /v2/polls, §4.3
 * POST /v1/standups and /v1/polls) and reading channel members for member sync.
 */
import { db as defaultDb, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ChannelNotFoundError } from "@/lib/domain/errors";
import { channelByName } from "@/lib/domain/exact-lookup";

/** A resolved channel: numeric row id, chat id (e.g. C0123ABCD) and name (without '#'). */
export type ChannelRef = { id: number; chat_id: string; name: string };

/**
 * Finds a channel of the actor's team by chat id (`C0123ABCD`) or by name, with or without the
 * leading `#` (exact name first, then equal ignoring case; never a pattern: `%` or `g_neral` match
 * nothing, lib/domain/exact-lookup.ts). Returns null when nothing matches.
 */
export async function findChannel(actor: Pick<Actor, "teamId">, ref: string, tx: Tx = defaultDb): Promise<ChannelRef | null> {
  const value = typeof ref === "string" ? ref.trim() : "";
  if (!value) return null;
  const select = { id: true, chat_id: true, name: true } as const;
  const byChatId = await tx.channel.findFirst({ where: { team_id: actor.teamId, chat_id: value }, select });
  if (byChatId) return byChatId;
  const name = value.replace(/^#/, "");
  if (!name) return null;
  return channelByName(actor.teamId, name, tx);
}

/**
 * Like `findChannel` but throws when the reference does not resolve.
 * @throws ChannelNotFoundError (400 CHANNEL_NOT_FOUND in v2).
 */
export async function resolveChannel(actor: Pick<Actor, "teamId">, ref: string, tx: Tx = defaultDb): Promise<ChannelRef> {
  const channel = await findChannel(actor, ref, tx);
  if (!channel) throw new ChannelNotFoundError(String(ref));
  return channel;
}

/** Numeric ids of the active (not deactivated) members of a channel, ascending. */
export async function channelMemberIds(channelId: number, tx: Tx = defaultDb): Promise<number[]> {
  const rows = await tx.channelMember.findMany({
    where: { channel_id: channelId, user: { deactivated_at: null } },
    select: { user_id: true },
    orderBy: { user_id: "asc" },
  });
  return rows.map((r) => r.user_id);
}
