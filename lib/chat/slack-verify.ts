/**
 * Verification of Slack's inbound requests (Events API, interactivity): Slack signs
 * `v0:<X-Slack-Request-Timestamp>:<raw body>` with HMAC-SHA-256 keyed by the app's signing secret
 * and sends `X-Slack-Signature: v0=<hex>`. A request is accepted when the timestamp is within 5
 * minutes of now (replay window) and the signature matches in constant time. Slack's own SDKs
 * implement exactly this (Bolt's `verifySlackRequest`); Bolt is not a dependency here, so these
 * few lines use node:crypto directly.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SLACK_REPLAY_WINDOW_SECONDS = 5 * 60;

/** Computes the `v0=` signature of a body (also used by tests to sign requests). */
export function signSlackRequest(secret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${rawBody}`).digest("hex")}`;
}

/** Why a request is rejected, or null when it is authentic and fresh. */
export function slackRequestProblem(
  secret: string,
  headers: { timestamp: string | null; signature: string | null },
  rawBody: string,
  now: Date = new Date(),
): string | null {
  const { timestamp, signature } = headers;
  if (!timestamp || !signature) return "missing X-Slack-Request-Timestamp or X-Slack-Signature";
  if (!/^\d{1,12}$/.test(timestamp)) return "malformed X-Slack-Request-Timestamp";
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > SLACK_REPLAY_WINDOW_SECONDS)
    return "request timestamp outside the 5-minute window";
  const expected = Buffer.from(signSlackRequest(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "signature mismatch";
  return null;
}
