/**
 * Throttle of dashboard sign-ins (issue 13, made atomic and lock-out-free by issue 40 item 6).
 *
 * An attempt is counted BEFORE its password is checked, with rate-limiter-flexible's atomic
 * `consume` in PostgreSQL (so every instance shares the counts and concurrent attempts cannot all
 * slip under the limit), and refunded when the password was right:
 *
 * - per account and client IP pair (`sign-in-pair`, SIGN_IN_MAX_FAILURES, default 10 per
 *   SIGN_IN_FAILURE_WINDOW_MINUTES, default 15): the guesser's own pair is refused with 429;
 * - per client IP (`sign-in-ip`, 5 × SIGN_IN_MAX_FAILURES): one address trying many accounts;
 * - per account from any address (`sign-in-account`): never refused, so nobody can lock the owner
 *   out; once the account has SIGN_IN_MAX_FAILURES failures in the window, each further attempt
 *   waits first (1 s, then 2, 4, at most 8 s: `accountDelayMs`) before its password is checked.
 *
 * The account is the active user the address resolves to (lib/domain/exact-lookup.ts), else the
 * normalised address, so case, spaces or LIKE patterns never make a second count for one person.
 * The link flows use the same store: e-mailed link requests are counted per address and IP
 * (`linkRequestBlockedBy`), and invalid invitation/reset tokens count against the IP
 * (`throttledRedemption`).
 */
import { consumeRateLimit, type RateLimitResult, ratePolicies, resetRateLimit, rewardRateLimit } from "@/lib/api/rate-limit";
import { InvalidTokenError } from "@/lib/auth/tokens";
import { UnprocessableError } from "@/lib/domain/errors";
import { activeUserIdByEmail, emailKey } from "@/lib/domain/exact-lookup";
import { limitSettings } from "@/lib/env";

/** The `error` code the sign-in page shows for a throttled attempt. */
export const SIGN_IN_THROTTLED_ERROR = "TooManyAttempts";

/** A subject of the throttle: the email tried (any case) and the client IP ("unknown": in-process calls). */
export type SignInSubject = { email: string | null | undefined; ip: string };

/** Longest wait of one attempt on an account under attack, in milliseconds. */
export const MAX_ACCOUNT_DELAY_MS = 8000;

/** The address as a throttle key: its normalised form, or the trimmed lower-cased text (≤ 200 characters). */
function addressKey(email: string | null | undefined): string | null {
  const e = email?.trim().toLowerCase();
  return e ? (emailKey(e) ?? e.slice(0, 200)) : null;
}

/** The account an address stands for: `user:<id>` of the active user it signs in as, else `email:<address>`. */
async function accountKey(email: string | null | undefined): Promise<string | null> {
  const address = addressKey(email);
  if (!address) return null;
  const id = await activeUserIdByEmail(address);
  return id !== null ? `user:${id}` : `email:${address}`;
}

/**
 * Wait before checking the password of an attempt on an account that already had `failures`
 * failed attempts in the window: none below SIGN_IN_MAX_FAILURES, then 1 s doubling per further
 * failure up to MAX_ACCOUNT_DELAY_MS. In milliseconds.
 */
export function accountDelayMs(failures: number, maxFailures = limitSettings().signInMaxFailures): number {
  if (maxFailures <= 0 || failures < maxFailures) return 0;
  return Math.min(1000 * 2 ** Math.min(failures - maxFailures, 10), MAX_ACCOUNT_DELAY_MS);
}

/** An admitted or refused sign-in attempt. */
export type SignInAttempt = {
  /** The limit that refuses the attempt (answer 429, check nothing), or null. */
  blocked: RateLimitResult | null;
  /** How long to wait before checking the password (the account's progressive delay), in ms. */
  delayMs: number;
  /**
   * Records the outcome of an admitted attempt: "failure" keeps its counts; "success" refunds it
   * (and clears the pair's count); "none" (nothing was checked, e.g. a bad CSRF token) refunds it.
   */
  settle(outcome: "success" | "failure" | "none"): Promise<void>;
};

/**
 * Counts one sign-in attempt atomically before its password is checked (see the module comment).
 * A refused attempt is not counted against the account.
 */
export async function admitSignIn(subject: SignInSubject): Promise<SignInAttempt> {
  const policies = ratePolicies();
  const account = await accountKey(subject.email);
  const pair = account ? `${account}|${subject.ip}` : null;
  const ip = subject.ip !== "unknown" ? subject.ip : null;
  const [byPair, byIp] = await Promise.all([
    pair ? consumeRateLimit(policies.signInPair, pair) : null,
    ip ? consumeRateLimit(policies.signInIp, ip) : null,
  ]);
  const blocked = [byPair, byIp].find((r) => r && !r.allowed) ?? null;
  if (blocked) {
    // Only the refusing limit keeps this attempt: nothing was checked.
    if (pair && byPair?.allowed) await rewardRateLimit(policies.signInPair, pair);
    if (ip && byIp?.allowed) await rewardRateLimit(policies.signInIp, ip);
    return { blocked, delayMs: 0, settle: async () => {} };
  }
  const byAccount = account ? await consumeRateLimit(policies.signInAccount, account) : null;
  const delayMs = byAccount ? accountDelayMs(byAccount.consumed - 1) : 0;
  return {
    blocked: null,
    delayMs,
    async settle(outcome) {
      if (outcome === "failure") return;
      await Promise.all([
        pair ? (outcome === "success" ? resetRateLimit(policies.signInPair, pair) : rewardRateLimit(policies.signInPair, pair)) : null,
        ip ? rewardRateLimit(policies.signInIp, ip) : null,
        account ? rewardRateLimit(policies.signInAccount, account) : null,
      ]);
    },
  };
}

/** Human message of a throttled attempt. */
export function throttledMessage(result: RateLimitResult): string {
  const minutes = Math.max(1, Math.ceil(result.resetSeconds / 60));
  const what = result.policy.name === "sign-in-pair" ? "this account from your network address" : "your network address";
  return `Too many failed sign-in attempts for ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Counts one request for an e-mailed link (forgot password) for the address and the client IP.
 * @returns the limit that refuses it, or null when the e-mail may be sent.
 */
export async function linkRequestBlockedBy(subject: SignInSubject): Promise<RateLimitResult | null> {
  const policies = ratePolicies();
  const address = addressKey(subject.email);
  const results = await Promise.all([
    address ? consumeRateLimit(policies.linkRequestAccount, address) : null,
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
 * count (`sign-in-ip`), consumed atomically first: refused once the IP is used up, kept when the
 * token was invalid, refunded otherwise.
 * @throws TooManyAttemptsError while blocked; whatever `redeem` throws.
 */
export async function throttledRedemption<T>(ip: string, redeem: () => Promise<T>): Promise<T> {
  const policy = ratePolicies().signInIp;
  const counted = ip !== "unknown" ? await consumeRateLimit(policy, ip) : null;
  if (counted && !counted.allowed) throw new TooManyAttemptsError(throttledMessage(counted));
  try {
    const result = await redeem();
    if (counted) await rewardRateLimit(policy, ip);
    return result;
  } catch (err) {
    if (counted && !(err instanceof InvalidTokenError)) await rewardRateLimit(policy, ip);
    throw err;
  }
}

/** A throttled dashboard attempt (the forms show its message). */
export class TooManyAttemptsError extends UnprocessableError {
  constructor(message: string) {
    super(message, "TOO_MANY_ATTEMPTS");
  }
}
