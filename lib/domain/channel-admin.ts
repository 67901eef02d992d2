/**
 * Team → Channels (issue 11, admins): create, rename, archive / unarchive built-in channels and
 * set their members. Archived channels keep their messages and still resolve for existing
 * standups; they are marked in lists. Every change writes an audit entry in the same transaction.
 */
import { randomBytes } from "node:crypto";
import { db, inTransaction, type Tx } from "@/lib/db";
import { canManagePeople } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { recordAudit } from "@/lib/domain/audit";
import { ConflictError, ForbiddenError, InvalidParameterError, NotFoundError, UserNotFoundError } from "@/lib/domain/errors";

const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,79}$/;

/** Lower-case channel name without '#': letters, digits, `.`, `_`, `-`, 1..80. @throws InvalidParameterError. */
export function normaliseChannelName(value: string): string {
  const name = value.trim().replace(/^#/, "").toLowerCase().replace(/\s+/g, "-");
  if (!NAME_RE.test(name)) throw new InvalidParameterError("Channel names use lower-case letters, digits, '.', '_' and '-' (at most 80)");
  return name;
}

function assertAdmin(actor: Actor) {
  if (!canManagePeople(actor)) throw new ForbiddenError("Only team admins can manage channels");
}

async function assertFreeName(t: Tx, teamId: number, name: string, exceptId?: number) {
  const taken = await t.channel.findFirst({
    where: { team_id: teamId, name, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (taken) throw new ConflictError(`#${name} already exists`);
}

async function findTeamChannel(t: Tx, actor: Actor, channelId: number) {
  const channel = await t.channel.findFirst({
    where: { id: channelId, team_id: actor.teamId },
    select: { id: true, name: true, archived_at: true },
  });
  if (!channel) throw new NotFoundError("Channel");
  return channel;
}

export type AdminChannel = { id: number; chatId: string; name: string; archived: boolean; memberIds: number[] };

/** Every channel of the team (archived last) with its member ids. */
export async function listChannelsForAdmin(actor: Actor, tx: Tx = db): Promise<AdminChannel[]> {
  const rows = await tx.channel.findMany({
    where: { team_id: actor.teamId },
    orderBy: [{ archived_at: { sort: "desc", nulls: "first" } }, { name: "asc" }],
    select: { id: true, chat_id: true, name: true, archived_at: true, members: { select: { user_id: true } } },
  });
  return rows.map((c) => ({
    id: c.id,
    chatId: c.chat_id,
    name: c.name,
    archived: Boolean(c.archived_at),
    memberIds: c.members.map((m) => m.user_id),
  }));
}

/** Creates a channel (admins). Audit `channel.create`. @throws ForbiddenError, InvalidParameterError, ConflictError. */
export async function createChannel(
  actor: Actor,
  input: { name: string; topic?: string },
  tx?: Tx,
): Promise<{ id: number; chatId: string }> {
  assertAdmin(actor);
  const name = normaliseChannelName(input.name);
  return inTransaction(tx, async (t) => {
    await assertFreeName(t, actor.teamId, name);
    const row = await t.channel.create({
      data: {
        team_id: actor.teamId,
        chat_id: `C${randomBytes(5).toString("hex").toUpperCase()}`,
        name,
        topic: input.topic?.trim() || null,
      },
      select: { id: true, chat_id: true },
    });
    await recordAudit(t, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: "channel.create",
      target: `channel:${row.id}`,
      details: { name },
    });
    return { id: row.id, chatId: row.chat_id };
  });
}

/** Renames a channel (admins). Audit `channel.rename`. */
export async function renameChannel(actor: Actor, input: { channelId: number; name: string }, tx?: Tx): Promise<void> {
  assertAdmin(actor);
  const name = normaliseChannelName(input.name);
  await inTransaction(tx, async (t) => {
    const channel = await findTeamChannel(t, actor, input.channelId);
    if (channel.name === name) return;
    await assertFreeName(t, actor.teamId, name, channel.id);
    await t.channel.update({ where: { id: channel.id }, data: { name } });
    await recordAudit(t, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: "channel.rename",
      target: `channel:${channel.id}`,
      details: { from: channel.name, to: name },
    });
  });
}

/** Archives or unarchives a channel (admins). Audit `channel.archive` / `channel.unarchive`. */
export async function setChannelArchived(actor: Actor, input: { channelId: number; archived: boolean }, tx?: Tx): Promise<void> {
  assertAdmin(actor);
  await inTransaction(tx, async (t) => {
    const channel = await findTeamChannel(t, actor, input.channelId);
    if (Boolean(channel.archived_at) === input.archived) return;
    await t.channel.update({ where: { id: channel.id }, data: { archived_at: input.archived ? new Date() : null } });
    await recordAudit(t, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: input.archived ? "channel.archive" : "channel.unarchive",
      target: `channel:${channel.id}`,
      details: { name: channel.name },
    });
  });
}

/**
 * Sets the members of a channel to exactly `userIds` (active people of the team; admins).
 * Audit `channel.members` with who was added and removed. @throws UserNotFoundError for others.
 */
export async function setChannelMembers(
  actor: Actor,
  input: { channelId: number; userIds: number[] },
  tx?: Tx,
): Promise<{ added: number[]; removed: number[] }> {
  assertAdmin(actor);
  const wanted = [...new Set(input.userIds)];
  return inTransaction(tx, async (t) => {
    const channel = await findTeamChannel(t, actor, input.channelId);
    const valid = await t.user.findMany({
      where: { id: { in: wanted }, team_id: actor.teamId, deactivated_at: null },
      select: { id: true },
    });
    const validIds = new Set(valid.map((u) => u.id));
    const unknown = wanted.filter((id) => !validIds.has(id));
    if (unknown.length) throw new UserNotFoundError(unknown);
    const current = new Set(
      (await t.channelMember.findMany({ where: { channel_id: channel.id }, select: { user_id: true } })).map((m) => m.user_id),
    );
    const added = wanted.filter((id) => !current.has(id));
    const removed = [...current].filter((id) => !validIds.has(id));
    if (removed.length) await t.channelMember.deleteMany({ where: { channel_id: channel.id, user_id: { in: removed } } });
    if (added.length)
      await t.channelMember.createMany({ data: added.map((user_id) => ({ channel_id: channel.id, user_id, team_id: actor.teamId })) });
    if (added.length || removed.length)
      await recordAudit(t, {
        teamId: actor.teamId,
        actorId: actor.userId,
        action: "channel.members",
        target: `channel:${channel.id}`,
        details: { name: channel.name, added, removed },
      });
    return { added, removed };
  });
}
