/**
 * Single-purpose answer links for e-mailed questions (issue 9): a token that lets one member
 * answer one occurrence without signing in, valid until the occurrence closes (or 7 days after
 * it was issued when the occurrence has no closing time). Format `base64url(json).base64url(mac)`
 * with HMAC-SHA-256 over the first part keyed by AUTH_SECRET; json is `{p: "answer", o, u, e}`
 * (occurrence id, user id, expiry in unix seconds). The purpose field keeps it from being usable
 * for anything else; the answer form also checks that the occurrence is still open.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type AnswerClaims = { occurrenceId: number; userId: number; expiresAt: Date };

const mac = (secret: string, body: string) => createHmac("sha256", `answer-link:${secret}`).update(body).digest();

/** Signs a token for `claims`. @throws when the secret is empty. */
export function createAnswerToken(secret: string, claims: AnswerClaims): string {
  if (!secret) throw new Error("No secret to sign answer links (AUTH_SECRET)");
  const body = Buffer.from(
    JSON.stringify({ p: "answer", o: claims.occurrenceId, u: claims.userId, e: Math.floor(claims.expiresAt.getTime() / 1000) }),
  ).toString("base64url");
  return `${body}.${mac(secret, body).toString("base64url")}`;
}

/** Verifies a token; returns its claims, or null when it is malformed, forged, for another purpose or expired. */
export function verifyAnswerToken(secret: string, token: string, now: Date = new Date()): AnswerClaims | null {
  if (!secret || typeof token !== "string" || token.length > 512) return null;
  const [body, sig, extra] = token.split(".");
  if (!body || !sig || extra !== undefined) return null;
  const expected = mac(secret, body);
  const given = Buffer.from(sig, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const c = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { p?: string; o?: number; u?: number; e?: number };
    if (c.p !== "answer" || !Number.isInteger(c.o) || !Number.isInteger(c.u) || !Number.isInteger(c.e)) return null;
    if ((c.e as number) * 1000 <= now.getTime()) return null;
    return { occurrenceId: c.o as number, userId: c.u as number, expiresAt: new Date((c.e as number) * 1000) };
  } catch {
    return null;
  }
}
