/**
 * Password flows (issue 11): change (knowing the current one), "forgot password" (an e-mailed,
 * 1-hour, single-use reset link; the answer never reveals whether the address exists), reset with
 * such a link, and admin-issued reset links shown once when no SMTP is configured.
 * A reset ends the person's other dashboard sessions (`session_version` is bumped).
 */
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { issueToken, peekToken, redeemToken } from "@/lib/auth/tokens";
import { db, inTransaction, type Tx } from "@/lib/db";
import { canManagePeople } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { recordAudit } from "@/lib/domain/audit";
import { ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { usersByEmail } from "@/lib/domain/exact-lookup";
import { checkNewPassword, normaliseEmail } from "@/lib/domain/people";
import { linkBaseUrl } from "@/lib/env";
import { emailConfigured, enqueueEmail } from "@/lib/mail/enqueue";

/**
 * Changes the actor's own password. @throws InvalidParameterError when the current password is
 * wrong (a person without a password yet may set one without it) or the new one is too short/long.
 */
export async function changePassword(actor: Actor, input: { current: string; next: string }, tx: Tx = db): Promise<void> {
  const next = checkNewPassword(input.next);
  const user = await tx.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { password_hash: true } });
  if (user.password_hash && !(await verifyPassword(user.password_hash, input.current)))
    throw new InvalidParameterError("The current password is not correct");
  await tx.user.update({ where: { id: actor.userId }, data: { password_hash: await hashPassword(next) } });
}

/**
 * "Forgot password": when `email` belongs to an active person and SMTP is configured, enqueues a
 * reset e-mail (1-hour single-use link on `linkBaseUrl()`, i.e. PUBLIC_URL: never the request's
 * host, issue 40 item 4). Returns nothing either way (no account oracle).
 * @returns whether e-mail is configured at all (the page says so when it is not).
 */
export async function requestPasswordReset(input: { email: string }): Promise<{ emailConfigured: boolean }> {
  if (!emailConfigured()) return { emailConfigured: false };
  let email: string;
  try {
    email = normaliseEmail(input.email);
  } catch {
    return { emailConfigured: true };
  }
  await db.$transaction(async (t) => {
    const found = await usersByEmail([email], { activeOnly: true }, t);
    const users = await t.user.findMany({
      where: { id: { in: found.map((u) => u.id) }, deactivated_at: null },
      select: { id: true, team_id: true, email: true, realname: true },
      orderBy: { id: "asc" },
    });
    for (const user of users) {
      const { token, expiresAt } = await issueToken(t, { teamId: user.team_id, userId: user.id, kind: "password_reset" });
      const link = `${linkBaseUrl()}/reset-password/${token}`;
      await enqueueEmail(
        t,
        {
          to: user.email,
          subject: "Reset your Team Check-in password",
          text: `Hello ${user.realname},\n\nopen this link to choose a new password (valid for one hour, usable once):\n\n${link}\n\nIf you did not ask for this, ignore this e-mail.\n`,
        },
        `reset:${user.id}:${expiresAt.getTime()}`,
      );
    }
  });
  return { emailConfigured: true };
}

/**
 * An admin issues a reset link for a person of their team (shown once; for teams without SMTP).
 * Audit: `user.password_reset_link`. @throws ForbiddenError, NotFoundError.
 */
export async function issueResetLink(
  actor: Actor,
  input: { userId: number; baseUrl: string },
  tx?: Tx,
): Promise<{ link: string; expiresAt: Date }> {
  if (!canManagePeople(actor)) throw new ForbiddenError("Only team admins can issue reset links");
  return inTransaction(tx, async (t) => {
    const user = await t.user.findFirst({
      where: { id: input.userId, team_id: actor.teamId, deactivated_at: null },
      select: { id: true, email: true },
    });
    if (!user) throw new NotFoundError("User");
    const { token, expiresAt } = await issueToken(t, {
      teamId: actor.teamId,
      userId: user.id,
      kind: "password_reset",
      createdById: actor.userId,
    });
    await recordAudit(t, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: "user.password_reset_link",
      target: `user:${user.id}`,
      details: { email: user.email },
    });
    return { link: `${input.baseUrl.replace(/\/$/, "")}/reset-password/${token}`, expiresAt };
  });
}

/**
 * The e-mail a password-reset link is for (the reset page shows it), without using the link; null
 * when the link is unknown, expired, used or its person deactivated (`peekToken`).
 */
export async function passwordResetOfLink(token: string, tx: Tx = db): Promise<{ email: string } | null> {
  const reset = await peekToken(tx, "password_reset", token);
  return reset ? { email: reset.user.email } : null;
}

/**
 * Sets a new password with a reset link (single use) and ends the person's other sessions.
 * @returns the e-mail to sign in with. @throws InvalidTokenError, InvalidParameterError.
 */
export async function resetPassword(input: { token: string; password: string }): Promise<{ email: string }> {
  const passwordHash = await hashPassword(checkNewPassword(input.password));
  return db.$transaction(async (t) => {
    const { userId } = await redeemToken(t, "password_reset", input.token);
    return t.user.update({
      where: { id: userId },
      data: { password_hash: passwordHash, session_version: { increment: 1 } },
      select: { email: true },
    });
  });
}
