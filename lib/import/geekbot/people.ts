/**
 * People and channels of a Geekbot import (issue 43). People are matched by e-mail (any case) in the
 * target team, else created without a password (shown as "invited" until someone invites them),
 * keeping their source chat id when it is free so that connecting the same Slack workspace later
 * lines them up. Channels are matched by chat id, then by name, else created. Nothing is sent.
 */
import { randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db";
import { newUserChatId } from "@/lib/domain/people";
import { emailKey, type ImportContext } from "@/lib/import/geekbot/context";
import type { SourceUser } from "@/lib/import/geekbot/source";
import { loadMap, recordMap } from "@/lib/import/map";

/** A chat-style id the source gave (not a bare number, which Geekbot uses for its own user rows). */
const isChatId = (id: string) => /^[A-Z][A-Z0-9]{2,}$/.test(id);

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Placeholder e-mail of a source user without one (a report of a user the source no longer lists). */
function unknownEmail(sourceId: string): string {
  return `${sourceId.toLowerCase().replace(/[^a-z0-9]/g, "") || "unknown"}@unknown.import.invalid`;
}

/**
 * Matches or creates every source user, then fills `ctx.users` (by source id and by e-mail).
 * Users without an e-mail are created with a placeholder one and listed in the notes.
 */
export async function importPeople(ctx: ImportContext, sourceUsers: SourceUser[]): Promise<void> {
  const byKey = new Map<string, SourceUser>();
  for (const u of sourceUsers) {
    const email = u.email && EMAIL_RE.test(u.email.trim()) ? u.email.trim().toLowerCase() : null;
    const key = email ? emailKey(email) : `id:${u.id}`;
    const seen = byKey.get(key);
    // Prefer the record with the chat id (teams/standups) over the numeric one (polls).
    if (!seen || (!isChatId(seen.id) && isChatId(u.id))) byKey.set(key, { ...u, email });
  }
  await ctx.write(async (tx) => {
    const mapped = await loadMap(tx, ctx.scope, "user");
    for (const [k, v] of mapped) ctx.users.set(k, v);
    const emails = [...byKey.values()].map((u) => u.email).filter((e): e is string => Boolean(e));
    const local = await tx.user.findMany({
      where: { team_id: ctx.scope.teamId, email: { in: emails, mode: "insensitive" } },
      select: { id: true, email: true },
    });
    const localByEmail = new Map(local.map((u) => [u.email.toLowerCase(), u.id]));
    const takenChat = new Set(
      (await tx.user.findMany({ where: { team_id: ctx.scope.teamId }, select: { chat_id: true } })).map((u) => u.chat_id),
    );
    const pairs: [string, number][] = [];
    for (const u of byKey.values()) {
      const email = u.email ?? unknownEmail(u.id);
      let id = mapped.get(u.id) ?? localByEmail.get(email);
      if (id !== undefined) ctx.summary.people.matched++;
      else {
        id = await createImportedUser(tx, ctx, u, email, takenChat);
        localByEmail.set(email, id);
        if (!u.email) {
          ctx.summary.people.unknown++;
          ctx.summary.notes.push({ what: "user", id: u.id, reason: `no e-mail at the source: created as ${email}` });
        }
      }
      ctx.users.set(u.id, id);
      ctx.users.set(emailKey(email), id);
      pairs.push([u.id, id]);
    }
    await recordMap(tx, ctx.scope, "user", pairs);
  });
}

async function createImportedUser(tx: Tx, ctx: ImportContext, u: SourceUser, email: string, takenChat: Set<string>): Promise<number> {
  let chatId = isChatId(u.id) && !takenChat.has(u.id) ? u.id : newUserChatId();
  while (takenChat.has(chatId)) chatId = newUserChatId();
  takenChat.add(chatId);
  const realname = (u.realname || u.username || email.split("@")[0]).slice(0, 100);
  const created = await tx.user.create({
    data: {
      team_id: ctx.scope.teamId,
      chat_id: chatId,
      username: (u.username || email.split("@")[0]).slice(0, 100),
      realname,
      firstname: realname.split(" ")[0] ?? realname,
      email,
      avatar_url: u.profile_img && /^https?:\/\//.test(u.profile_img) ? u.profile_img : null,
      password_hash: null,
    },
    select: { id: true },
  });
  ctx.summary.people.created++;
  return created.id;
}

/**
 * A local user for a source user id seen only on a report (deleted at the source, or anonymous):
 * matched through `ctx.users`, else created once (placeholder e-mail, deactivated) and noted.
 */
export async function userForUnknown(
  tx: Tx,
  ctx: ImportContext,
  sourceId: string,
  names: { username: string; realname: string },
  reason: string,
): Promise<number> {
  const known = ctx.users.get(sourceId);
  if (known !== undefined) return known;
  const email = unknownEmail(sourceId);
  const existing = await tx.user.findFirst({ where: { team_id: ctx.scope.teamId, email }, select: { id: true } });
  let id = existing?.id;
  if (id === undefined) {
    const taken = new Set(
      (await tx.user.findMany({ where: { team_id: ctx.scope.teamId, chat_id: sourceId }, select: { chat_id: true } })).map(
        (u) => u.chat_id,
      ),
    );
    id = await createImportedUser(
      tx,
      ctx,
      { id: sourceId, email, username: names.username, realname: names.realname, role: null, profile_img: null },
      email,
      taken,
    );
    await tx.user.update({ where: { id }, data: { deactivated_at: new Date() } });
    ctx.summary.people.unknown++;
    ctx.summary.notes.push({ what: "user", id: sourceId, reason });
  }
  ctx.users.set(sourceId, id);
  await recordMap(tx, ctx.scope, "user", [[sourceId, id]]);
  return id;
}

/**
 * Matches or creates the channels named by standups and polls (`chatIds`: the source's channel chat
 * id by name, from /v2/standups, when known), filling `ctx.channels` by name.
 */
export async function importChannels(ctx: ImportContext, names: Iterable<string>, chatIds: Map<string, string>): Promise<void> {
  const wanted = [...new Set([...names].map((n) => n.replace(/^#/, "").trim()).filter(Boolean))];
  if (!wanted.length) return;
  await ctx.write(async (tx) => {
    const local = await tx.channel.findMany({ where: { team_id: ctx.scope.teamId }, select: { id: true, name: true, chat_id: true } });
    const byName = new Map(local.map((c) => [c.name, c.id]));
    const byChat = new Map(local.map((c) => [c.chat_id, c.id]));
    const pairs: [string, number][] = [];
    for (const name of wanted) {
      const chat = chatIds.get(name);
      let id = (chat ? byChat.get(chat) : undefined) ?? byName.get(name);
      if (id !== undefined) ctx.summary.channels.matched++;
      else {
        const chatId = chat && !byChat.has(chat) ? chat : `C${randomBytes(5).toString("hex").toUpperCase()}`;
        id = (await tx.channel.create({ data: { team_id: ctx.scope.teamId, chat_id: chatId, name }, select: { id: true } })).id;
        byChat.set(chatId, id);
        ctx.summary.channels.created++;
      }
      ctx.channels.set(name, id);
      pairs.push([name, id]);
    }
    await recordMap(tx, ctx.scope, "channel", pairs);
  });
}
