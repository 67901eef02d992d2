/**
 * Sending outgoing webhooks (Standard Webhooks, issue 9). `sendWebhookDelivery` runs one attempt
 * of a `webhook_deliveries` row: POST of its `{type, timestamp, data}` JSON (an event about a
 * report or poll is rendered at the first attempt and stored, lib/api/v2/webhook-data.ts; every
 * attempt sends the stored payload, so retries resend the same bytes) with headers
 * `webhook-id` (the delivery's message id, the same on every retry), `webhook-timestamp` (unix
 * seconds of this attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`,
 * computed by the `standardwebhooks` library from the endpoint's `whsec_` secret).
 *
 * A 2xx answer within 15 s delivers it. Otherwise attempt n is retried after `retryDelays[n-1]`
 * seconds (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h); after the last one the delivery is
 * `failed`, and an endpoint whose `DISABLE_AFTER_FAILED_DELIVERIES` deliveries in a row failed is
 * disabled with the reason. Redirects are not followed (a 3xx is a failure).
 */
import { Webhook } from "standardwebhooks";
import { deliveryPayload } from "@/lib/api/v2/webhook-data";
import type { Db } from "@/lib/db";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";

export const DISABLE_AFTER_FAILED_DELIVERIES = 5;
const TIMEOUT_MS = 15_000;

export type WebhookAttemptOutcome =
  | { result: "delivered"; status: number }
  | { result: "retry"; afterSeconds: number; error: string }
  | { result: "failed"; error: string }
  | { result: "skipped"; reason: string };

/** One delivery attempt. Bookkeeping is written before returning; the caller schedules a retry. */
export async function sendWebhookDelivery(
  db: Db,
  deliveryId: number,
  opts: { retryDelays: number[]; allowPrivate: boolean; now?: () => Date },
): Promise<WebhookAttemptOutcome> {
  const d = await db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    select: {
      id: true,
      state: true,
      attempts: true,
      message_id: true,
      event_type: true,
      created_at: true,
      payload: true,
      resource_kind: true,
      resource_id: true,
      endpoint: { select: { id: true, url: true, secret: true, disabled_at: true } },
    },
  });
  if (!d) return { result: "skipped", reason: "delivery no longer exists" };
  if (d.state !== "pending") return { result: "skipped", reason: `already ${d.state}` };
  if (d.endpoint.disabled_at) {
    await db.webhookDelivery.update({
      where: { id: d.id },
      data: { state: "failed", last_error: "endpoint disabled", next_attempt_at: null },
    });
    return { result: "failed", error: "endpoint disabled" };
  }
  const attempt = d.attempts + 1;
  const payload = await deliveryPayload(db, d);
  if (payload === null) {
    // Its report or poll was deleted before the first attempt (an erasure with retention mode
    // "delete", a team's removal): nothing to send, and no fault of the endpoint.
    const gone = `the ${d.resource_kind} ${d.resource_id} no longer exists`;
    await db.webhookDelivery.update({ where: { id: d.id }, data: { state: "failed", last_error: gone, next_attempt_at: null } });
    return { result: "failed", error: gone };
  }
  const body = JSON.stringify(payload);
  let status: number | null = null;
  let error: string | null = null;
  const problem = await webhookUrlProblem(d.endpoint.url, { allowPrivate: opts.allowPrivate });
  if (problem) {
    error = `URL refused: ${problem}`;
  } else {
    const at = opts.now?.() ?? new Date();
    const signature = new Webhook(d.endpoint.secret).sign(d.message_id, at, body);
    try {
      const res = await fetch(d.endpoint.url, {
        method: "POST",
        redirect: "manual",
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: {
          "content-type": "application/json",
          "user-agent": "team-checkin-webhooks/1",
          "webhook-id": d.message_id,
          "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
          "webhook-signature": signature,
        },
        body,
      });
      status = res.status;
      await res.body?.cancel().catch(() => {});
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      error =
        e.name === "TimeoutError" ? `timed out after ${TIMEOUT_MS / 1000} s` : `${e.message}${e.cause?.code ? ` (${e.cause.code})` : ""}`;
    }
  }
  if (!error) {
    await db.$transaction([
      db.webhookDelivery.update({
        where: { id: d.id },
        data: {
          state: "delivered",
          attempts: attempt,
          last_status_code: status,
          last_error: null,
          delivered_at: new Date(),
          next_attempt_at: null,
        },
      }),
      db.webhookEndpoint.update({ where: { id: d.endpoint.id }, data: { consecutive_failures: 0 } }),
    ]);
    return { result: "delivered", status: status as number };
  }
  const delay = problem ? undefined : opts.retryDelays[attempt - 1];
  if (delay !== undefined) {
    await db.webhookDelivery.update({
      where: { id: d.id },
      data: { attempts: attempt, last_status_code: status, last_error: error, next_attempt_at: new Date(Date.now() + delay * 1000) },
    });
    return { result: "retry", afterSeconds: delay, error };
  }
  await db.$transaction(async (tx) => {
    await tx.webhookDelivery.update({
      where: { id: d.id },
      data: { state: "failed", attempts: attempt, last_status_code: status, last_error: error, next_attempt_at: null },
    });
    const e = await tx.webhookEndpoint.update({
      where: { id: d.endpoint.id },
      data: { consecutive_failures: { increment: 1 } },
      select: { consecutive_failures: true, disabled_at: true },
    });
    if (e.consecutive_failures >= DISABLE_AFTER_FAILED_DELIVERIES && !e.disabled_at) {
      await tx.webhookEndpoint.update({
        where: { id: d.endpoint.id },
        data: {
          disabled_at: new Date(),
          disabled_reason: `${e.consecutive_failures} deliveries in a row failed after every retry (last: ${error})`,
        },
      });
    }
  });
  return { result: "failed", error };
}
