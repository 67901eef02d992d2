/**
 * Throttle of dashboard sign-ins (issue 13): FAILED attempts are counted per account (lower-cased
 * email) and per client IP (lib/api/rate-limit.ts policies `sign-in-account` / `sign-in-ip`,
 * default 10 per 15 minutes each). Once either is used up, attempts answer 429 with
 * `Retry-After` (seconds) before the password is even checked; a successful sign-in clears the
 * account's count. The link flows use it too: e-mailed link requests are counted per address and
 * IP (`linkRequestBlockedBy`), and invalid invitation/reset tokens count as failures of the IP
 * (`throttledRedemption`).
 */
import { consumeRateLimit, peekRateLimit, type RateLimitResult, ratePolicies, recordFailure, resetRateLimit } from "@/lib/api/rate-limit";
import { InvalidTokenError } from "@/lib/auth/tokens";
import { UnprocessableError } from "@/lib/domain/errors";

/** The `error` code the sign-in page shows for a throttled attempt. */
export const SIGN_IN_THROTTLED_ERROR = "TooManyAttempts";

/** A subject of the throttle: the email tried (any case) and the client IP ("unknown" skips the IP count). */
export type SignInSubject = { email: string | null | undefined; ip: string };

function accountKey(email: string | null | undefined): string | null {
  const e = email?.trim().toLowerCase();
  return e ? e.slice(0, 200) : null;
}

/**
 * The limit that blocks this attempt, or null when it may go ahead. Reads only; counts nothing.
 */
export async function signInBlockedBy(subject: SignInSubject): Promise<RateLimitResult | null> {
  const policies = ratePolicies();
  const account = accountKey(subject.email);
  const checks = [
    account ? peekRateLimit(policies.signInAccount, account) : null,
    subject.ip !== "unknown" ? peekRateLimit(policies.signInIp, subject.ip) : null,
  ];
  for (const result of await Promise.all(checks)) if (result && !result.allowed) return result;
  return null;
}

/** Counts one failed attempt for the account and the IP. */
export async function recordSignInFailure(subject: SignInSubject): Promise<void> {
  const policies = ratePolicies();
  const account = accountKey(subject.email);
  await Promise.all([
    account ? recordFailure(policies.signInAccount, account) : null,
    subject.ip !== "unknown" ? recordFailure(policies.signInIp, subject.ip) : null,
  ]);
}

/** Clears the account's failures after a successful sign-in (the IP's count stays). */
export async function recordSignInSuccess(subject: SignInSubject): Promise<void> {
  const account = accountKey(subject.email);
  if (account) await resetRateLimit(ratePolicies().signInAccount, account);
}

/** Human message of a throttled attempt. */
export function throttledMessage(result: RateLimitResult): string {
  const minutes = Math.max(1, Math.ceil(result.resetSeconds / 60));
  const what = result.policy.name === "sign-in-account" ? "this account" : "your network address";
  return `Too many failed sign-in attempts for ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Counts one request for an e-mailed link (forgot password) for the address and the client IP.
 * @returns the limit that refuses it, or null when the e-mail may be sent.
 */
export async function linkRequestBlockedBy(subject: SignInSubject): Promise<RateLimitResult | null> {
  const policies = ratePolicies();
  const account = accountKey(subject.email);
  const results = await Promise.all([
    account ? consumeRateLimit(policies.linkRequestAccount, account) : null,
    subject.ip !== "unknown" ? consumeRateLimit(policies.linkRequestIp, subject.ip) : null,
  ]);
  return results.find((r) => r && !r.allowed) ?? null;
}

/** Human message of a refused link request. */
export function linkRequestThrottledMessage(result: RateLimitResult): string {
  const minutes = Math.max(1, Math.ceil(result.resetSeconds / 60));
  return `Too many link requests. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Runs a link-token redemption (accept an invitation, reset a password) under the client IP's
 * failure count: refused while the IP is blocked (`sign-in-ip`), and an `InvalidTokenError`
 * counts one failure before it is rethrown.
 * @throws TooManyAttemptsError while blocked; whatever `redeem` throws.
 */
export async function throttledRedemption<T>(ip: string, redeem: () => Promise<T>): Promise<T> {
  const blocked = await signInBlockedBy({ email: null, ip });
  if (blocked) throw new TooManyAttemptsError(throttledMessage(blocked));
  try {
    return await redeem();
  } catch (err) {
    if (err instanceof InvalidTokenError) await recordSignInFailure({ email: null, ip });
    throw err;
  }
}

/** A throttled dashboard attempt (the forms show its message). */
export class TooManyAttemptsError extends UnprocessableError {
  constructor(message: string) {
    super(message, "TOO_MANY_ATTEMPTS");
  }
}
