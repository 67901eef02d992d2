/**
 * Single-use link tokens (issue 11 "Security of these flows"): invitations (7 days), password
 * resets (1 hour) and one-time sign-in links (24 hours). The plaintext is 32 random bytes
 * (base64url, 43 characters), returned once by `issueToken`; only its SHA-256 hex is stored in
 * `auth_tokens.hash`. Redeeming marks the row used in the same UPDATE that checks it is unused and
 * unexpired, so two concurrent redemptions cannot both succeed.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db";
import { UnprocessableError } from "@/lib/domain/errors";
import type { AuthTokenKind } from "@/lib/generated/prisma/client";

/** Validity of each kind of token, in milliseconds. */
export const TOKEN_TTL_MS: Record<AuthTokenKind, number> = {
  invitation: 7 * 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  sign_in: 24 * 60 * 60 * 1000,
};

/** The error every unusable token gives (unknown, used, expired, wrong kind): one message, no oracle. */
export class InvalidTokenError extends UnprocessableError {
  constructor() {
    super("This link is invalid, has expired or has already been used. Ask for a new one.");
  }
}

/** SHA-256 hex of a plaintext token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Stores a new token for a user and returns its plaintext (shown or mailed once).
 * Earlier unused tokens of the same kind for the same user are expired, so only the newest link works.
 * @param now clock for tests (UTC instant).
 */
export async function issueToken(
  tx: Tx,
  input: { teamId: number; userId: number; kind: AuthTokenKind; createdById?: number | null; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const now = input.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + TOKEN_TTL_MS[input.kind]);
  await tx.authToken.updateMany({
    where: { user_id: input.userId, kind: input.kind, used_at: null, expires_at: { gt: now } },
    data: { expires_at: now },
  });
  await tx.authToken.create({
    data: {
      team_id: input.teamId,
      user_id: input.userId,
      kind: input.kind,
      hash: hashToken(token),
      expires_at: expiresAt,
      created_by_id: input.createdById ?? null,
    },
  });
  return { token, expiresAt };
}

/**
 * The user a token would admit, without using it (for the page that shows the form).
 * @returns null when the token is unknown, of another kind, used or expired.
 */
export async function peekToken(tx: Tx, kind: AuthTokenKind, token: string, now = new Date()) {
  if (!token || token.length > 200) return null;
  return tx.authToken.findFirst({
    where: { hash: hashToken(token), kind, used_at: null, expires_at: { gt: now }, user: { deactivated_at: null } },
    select: { id: true, team_id: true, user_id: true, expires_at: true, user: { select: { email: true, realname: true } } },
  });
}

/**
 * Uses a token: marks it used (atomically, only when unused and unexpired) and returns its user.
 * Call inside the transaction that performs what the token allows, so a failure leaves it usable.
 * @throws InvalidTokenError when it is unknown, of another kind, used, expired, or its user is deactivated.
 */
export async function redeemToken(
  tx: Tx,
  kind: AuthTokenKind,
  token: string,
  now = new Date(),
): Promise<{ teamId: number; userId: number }> {
  if (!token || token.length > 200) throw new InvalidTokenError();
  const hash = hashToken(token);
  const { count } = await tx.authToken.updateMany({
    where: { hash, kind, used_at: null, expires_at: { gt: now }, user: { deactivated_at: null } },
    data: { used_at: now },
  });
  if (count !== 1) throw new InvalidTokenError();
  const row = await tx.authToken.findUniqueOrThrow({ where: { hash }, select: { team_id: true, user_id: true } });
  return { teamId: row.team_id, userId: row.user_id };
}
