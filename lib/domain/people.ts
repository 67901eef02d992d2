/**
 * People of a team (issue 11 "People"): add, invite (single-use 7-day link, e-mailed when SMTP is
 * configured, otherwise returned once to show), accept an invitation, change role, deactivate and
 * reactivate. Every admin action writes an audit entry in the same transaction as the change.
 *
 * A person who was invited and has not accepted yet is a user row without a password; they are
 * not asked in standups until they are added to one. Deactivation keeps every report and vote,
 * removes the person from every standup and poll (so future occurrences do not ask them) and from
 * built-in channels, revokes their API keys at once and ends their dashboard sessions
 * (`session_version` is bumped; lib/auth/session.ts compares it on every request).
 */

import { randomBytes } from "node:crypto";
import { invalidateApiKeys } from "@/lib/auth/api-key-cache";
import { hashPassword } from "@/lib/auth/password";
import { issueToken, peekToken, redeemToken } from "@/lib/auth/tokens";
import { db, inTransaction, type Tx } from "@/lib/db";
import { canManagePeople, type Role } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { recordAudit } from "@/lib/domain/audit";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/domain/constants";
import { ConflictError, ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { emailKey, usersByEmail } from "@/lib/domain/exact-lookup";
import { isValidTimezone } from "@/lib/domain/schedule";
import { emailConfigured, enqueueEmail } from "@/lib/mail/enqueue";

/** A new person's details as an admin or a command gives them. */
export type PersonInput = { email: string; name: string; role?: Role; timezone?: string };

/** What an invitation produced: the link (only when it was not e-mailed) and whether it was e-mailed. */
export type InvitationResult = { userId: number; email: string; link: string | null; emailed: boolean; expiresAt: Date };

/** Normalised e-mail. @throws InvalidParameterError when it is not an address. */
export function normaliseEmail(value: string): string {
  const email = emailKey(value);
  if (!email) throw new InvalidParameterError(`Not an e-mail address: ${JSON.stringify(value.trim())}`);
  return email;
}

/** Trimmed display name, 1..100 characters. @throws InvalidParameterError. */
export function normaliseName(value: string): string {
  const name = value.trim().replace(/\s+/g, " ");
  if (name.length === 0) throw new InvalidParameterError("Name must not be empty");
  if (name.length > 100) throw new InvalidParameterError("Name must be at most 100 characters");
  return name;
}

/** A password a person chooses: 8..200 characters. @throws InvalidParameterError. */
export function checkNewPassword(password: string): string {
  if (password.length < PASSWORD_MIN_LENGTH)
    throw new InvalidParameterError(`The password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH)
    throw new InvalidParameterError(`The password must have at most ${PASSWORD_MAX_LENGTH} characters`);
  return password;
}

/** A timezone or UTC when empty. @throws InvalidParameterError for unknown zones. */
export function normaliseTimezone(value: string | undefined | null): string {
  const tz = (value ?? "").trim();
  if (tz === "") return "UTC";
  if (!isValidTimezone(tz)) throw new InvalidParameterError(`Unknown timezone: ${tz} (use an IANA name such as Europe/Berlin)`);
  return tz;
}

/** A fresh chat-platform-style user id (`U` + 10 characters), the id the v2 API shows. */
export function newUserChatId(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(10);
  return `U${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("")}`;
}

function assertAdmin(actor: Actor): void {
  if (!canManagePeople(actor)) throw new ForbiddenError("Only team admins can manage people");
}

/**
 * Creates a user in a team (no password: they sign in through an invitation or sign-in link).
 * @param actorId the admin who adds them (null: a command). @throws ConflictError when the e-mail is taken in the team.
 */
export async function createPerson(
  tx: Tx,
  teamId: number,
  input: PersonInput & { passwordHash?: string | null; chatId?: string; avatarUrl?: string | null },
) {
  const email = normaliseEmail(input.email);
  const name = normaliseName(input.name);
  const role = input.role ?? "member";
  const [existing] = await usersByEmail([email], { teamId }, tx);
  if (existing) throw new ConflictError(`${email} is already a member of this team`);
  return tx.user.create({
    data: {
      team_id: teamId,
      chat_id: input.chatId ?? newUserChatId(),
      email,
      realname: name,
      firstname: name.split(" ")[0] ?? name,
      username: email.split("@")[0] ?? email,
      timezone: normaliseTimezone(input.timezone),
      role,
      is_admin: role === "admin",
      password_hash: input.passwordHash ?? null,
      avatar_url: input.avatarUrl ?? null,
    },
    select: { id: true, email: true, realname: true, chat_id: true, team_id: true },
  });
}

/**
 * Issues an invitation link for a user who has not set a password yet and, when SMTP is
 * configured, enqueues the e-mail in the same transaction.
 * @param baseUrl origin the link points at, e.g. http://localhost:3000.
 */
async function inviteExisting(
  tx: Tx,
  user: { id: number; team_id: number; email: string; realname: string },
  opts: { actorId: number | null; baseUrl: string; teamName: string },
): Promise<InvitationResult> {
  const { token, expiresAt } = await issueToken(tx, {
    teamId: user.team_id,
    userId: user.id,
    kind: "invitation",
    createdById: opts.actorId,
  });
  const link = `${opts.baseUrl.replace(/\/$/, "")}/invite/${token}`;
  const emailed = emailConfigured();
  if (emailed) {
    await enqueueEmail(
      tx,
      {
        to: user.email,
        subject: `You are invited to ${opts.teamName} on Team Check-in`,
        text: `Hello ${user.realname},\n\nyou have been invited to the team ${opts.teamName}. Open this link to choose your password (valid for 7 days, usable once):\n\n${link}\n`,
      },
      `invite:${user.id}:${expiresAt.getTime()}`,
    );
  }
  return { userId: user.id, email: user.email, link: emailed ? null : link, emailed, expiresAt };
}

/**
 * Invites a person (admins only): creates them (or re-invites someone who never accepted) and
 * issues a 7-day single-use link. Audit: `user.invite`.
 * @throws ForbiddenError, InvalidParameterError, ConflictError (already an active member with a password).
 */
export async function invitePerson(actor: Actor, input: PersonInput, opts: { baseUrl: string }, tx?: Tx): Promise<InvitationResult> {
  assertAdmin(actor);
  return inTransaction(tx, async (t) => {
    const team = await t.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { name: true } });
    const email = normaliseEmail(input.email);
    const [match] = await usersByEmail([email], { teamId: actor.teamId }, t);
    const existing = await t.user.findFirst({
      where: { id: match?.id ?? 0, team_id: actor.teamId },
      select: { id: true, team_id: true, email: true, realname: true, password_hash: true, deactivated_at: true },
    });
    if (existing && (existing.password_hash || existing.deactivated_at))
      throw new ConflictError(
        existing.deactivated_at ? `${email} was deactivated; reactivate them instead` : `${email} is already a member of this team`,
      );
    const user = existing ?? (await createPerson(t, actor.teamId, input));
    const result = await inviteExisting(t, user, { actorId: actor.userId, baseUrl: opts.baseUrl, teamName: team.name });
    await recordAudit(t, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: "user.invite",
      target: `user:${user.id}`,
      details: { email, role: input.role ?? "member", emailed: result.emailed, reinvite: Boolean(existing) },
    });
    return result;
  });
}

/**
 * What the invitation page shows for a link (app/(auth)/invite/[token]): the invited person's
 * e-mail, name and timezone and the team's name, without using the link; null when the link is
 * unknown, expired, used or its person deactivated (`peekToken`).
 */
export async function invitationOfLink(
  token: string,
  tx: Tx = db,
): Promise<{ email: string; realname: string; timezone: string; teamName: string } | null> {
  const invitation = await peekToken(tx, "invitation", token);
  if (!invitation) return null;
  const user = await tx.user.findUniqueOrThrow({
    where: { id: invitation.user_id },
    select: { timezone: true, team: { select: { name: true } } },
  });
  return { email: invitation.user.email, realname: invitation.user.realname, timezone: user.timezone, teamName: user.team.name };
}

/**
 * Accepts an invitation: sets name, password and timezone and uses the token (single use).
 * @returns the e-mail to sign in with. @throws InvalidTokenError, InvalidParameterError.
 */
export async function acceptInvitation(input: { token: string; name: string; password: string; timezone?: string }, tx?: Tx) {
  const name = normaliseName(input.name);
  const passwordHash = await hashPassword(checkNewPassword(input.password));
  const timezone = input.timezone ? normaliseTimezone(input.timezone) : undefined;
  return inTransaction(tx, async (t) => {
    const { userId, teamId } = await redeemToken(t, "invitation", input.token);
    const user = await t.user.update({
      where: { id: userId },
      data: { realname: name, firstname: name.split(" ")[0] ?? name, password_hash: passwordHash, ...(timezone ? { timezone } : {}) },
      select: { email: true },
    });
    await recordAudit(t, { teamId, actorId: userId, action: "user.accept_invitation", target: `user:${userId}` });
    return { email: user.email };
  });
}

async function findTeamUser(t: Tx, actor: Actor, userId: number) {
  const user = await t.user.findFirst({
    where: { id: userId, team_id: actor.teamId },
    select: { id: true, role: true, email: true, realname: true, deactivated_at: true },
  });
  if (!user) throw new NotFoundError("User");
  return user;
}

/** Number of active admins of a team other than `exceptUserId`. */
async function otherActiveAdmins(t: Tx, teamId: number, exceptUserId: number): Promise<number> {
  return t.user.count({ where: { team_id: teamId, role: "admin", deactivated_at: null, id: { not: exceptUserId } } });
}

/**
 * Changes a person's role (admins only). The last active admin cannot be demoted. Audit: `user.role_change`.
 * @throws ForbiddenError, NotFoundError, ConflictError.
 */
export async function changeRole(actor: Actor, input: { userId: number; role: Role }, tx?: Tx): Promise<void> {
  assertAdmin(actor);
  await inTransaction(tx, async (t) => {
    const user = await findTeamUser(t, actor, input.userId);
    if (user.role === input.role) return;
    if (user.role === "admin" && (await otherActiveAdmins(t, actor.teamId, user.id)) === 0)
      throw new ConflictError("The team needs at least one admin: make someone else admin first");
    await t.user.update({ where: { id: user.id }, data: { role: input.role, is_admin: input.role === "admin" } });
    await recordAudit(t, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: "user.role_change",
      target: `user:${user.id}`,
      details: { email: user.email, from: user.role, to: input.role },
    });
  });
}

/**
 * Deactivates a person (admins only; not oneself): keeps their history, removes them from every
 * standup, poll and built-in channel, revokes their API keys and ends their sessions.
 * Audit: `user.deactivate` with the numbers removed.
 * @throws ForbiddenError, NotFoundError, ConflictError (oneself, or the last admin).
 */
export async function deactivatePerson(actor: Actor | null, input: { teamId: number; userId: number }, tx?: Tx): Promise<void> {
  if (actor) {
    assertAdmin(actor);
    if (actor.teamId !== input.teamId) throw new NotFoundError("User");
    if (actor.userId === input.userId) throw new ConflictError("You cannot deactivate yourself");
  }
  await inTransaction(tx, async (t) => {
    const user = await t.user.findFirst({
      where: { id: input.userId, team_id: input.teamId },
      select: { id: true, role: true, email: true, deactivated_at: true },
    });
    if (!user) throw new NotFoundError("User");
    if (user.deactivated_at) return;
    if (user.role === "admin" && (await otherActiveAdmins(t, input.teamId, user.id)) === 0)
      throw new ConflictError("The team needs at least one active admin");
    const now = new Date();
    await t.user.update({ where: { id: user.id }, data: { deactivated_at: now, session_version: { increment: 1 } } });
    const keys = await t.apiKey.updateMany({ where: { user_id: user.id, revoked_at: null }, data: { revoked_at: now } });
    const checkins = await t.checkinMember.deleteMany({ where: { user_id: user.id } });
    const channels = await t.channelMember.deleteMany({ where: { user_id: user.id } });
    await t.authToken.updateMany({ where: { user_id: user.id, used_at: null, expires_at: { gt: now } }, data: { expires_at: now } });
    // Other instances hear of it through the api_keys/users triggers' NOTIFY; this one forgets now.
    invalidateApiKeys(`user:${user.id}`);
    await recordAudit(t, {
      teamId: input.teamId,
      actorId: actor?.userId ?? null,
      action: "user.deactivate",
      target: `user:${user.id}`,
      details: { email: user.email, revokedApiKeys: keys.count, removedFromCheckins: checkins.count, removedFromChannels: channels.count },
    });
  });
}

/**
 * Reactivates a person (admins only). They can sign in again; standup memberships and API keys
 * are not restored (add them again). Audit: `user.reactivate`.
 */
export async function reactivatePerson(actor: Actor | null, input: { teamId: number; userId: number }, tx?: Tx): Promise<void> {
  if (actor) {
    assertAdmin(actor);
    if (actor.teamId !== input.teamId) throw new NotFoundError("User");
  }
  await inTransaction(tx, async (t) => {
    const user = await t.user.findFirst({
      where: { id: input.userId, team_id: input.teamId },
      select: { id: true, email: true, deactivated_at: true },
    });
    if (!user) throw new NotFoundError("User");
    if (!user.deactivated_at) return;
    await t.user.update({ where: { id: user.id }, data: { deactivated_at: null } });
    await recordAudit(t, {
      teamId: input.teamId,
      actorId: actor?.userId ?? null,
      action: "user.reactivate",
      target: `user:${user.id}`,
      details: { email: user.email },
    });
  });
}

export type PersonRow = {
  id: number;
  chatId: string;
  realname: string;
  email: string;
  role: Role;
  timezone: string;
  status: "active" | "invited" | "deactivated";
  deactivatedAt: Date | null;
};

/** Every person of the actor's team, active first then invited then deactivated, by name (admins see all; others see active people). */
export async function listPeople(actor: Actor, tx: Tx = db): Promise<PersonRow[]> {
  const rows = await tx.user.findMany({
    where: { team_id: actor.teamId, ...(canManagePeople(actor) ? {} : { deactivated_at: null }) },
    orderBy: [{ realname: "asc" }, { id: "asc" }],
    select: { id: true, chat_id: true, realname: true, email: true, role: true, timezone: true, password_hash: true, deactivated_at: true },
  });
  const rank = { active: 0, invited: 1, deactivated: 2 } as const;
  return rows
    .map((u) => ({
      id: u.id,
      chatId: u.chat_id,
      realname: u.realname,
      email: u.email,
      role: u.role,
      timezone: u.timezone,
      status: u.deactivated_at ? ("deactivated" as const) : u.password_hash ? ("active" as const) : ("invited" as const),
      deactivatedAt: u.deactivated_at,
    }))
    .sort((a, b) => rank[a.status] - rank[b.status]);
}

export { inviteExisting };
