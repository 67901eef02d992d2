/**
 * The one emitter of outgoing webhook events (issue 9 "Outgoing webhooks"). `emitEvent` writes one
 * `webhook_deliveries` row per enabled endpoint of the team subscribed to `type` and enqueues its
 * `deliver_webhook` job, all in the caller's transaction: a committed change always has its
 * events, a rolled-back one has none. Delivery (signing, retries) is lib/chat/webhooks.ts.
 *
 * Payload (Standard Webhooks): `{type, timestamp, data}` where `data` is the v2 resource
 * (e.g. the v2 report of spec §2.4 for `report.*`); `timestamp` is the event time (ISO 8601 UTC).
 */
import { randomBytes } from "node:crypto";
import { serializePollV2 } from "@/lib/api/v2/polls";
import { serializeReportV2 } from "@/lib/api/v2/reports";
import { INCLUDE_VALUES } from "@/lib/api/v2/standups";
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { getPoll } from "@/lib/domain/polls";
import { loadReportView } from "@/lib/domain/report-writes";
import type { Prisma } from "@/lib/generated/prisma/client";

/** Event types an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  "report.submitted",
  "report.updated",
  "report.deleted",
  "poll.created",
  "poll.closed",
  "occurrence.started",
  "occurrence.closed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Type of the test event sent from the dashboard / `POST /v2/webhooks/{id}/test` (never subscribed). */
export const TEST_EVENT_TYPE = "webhook.test";

/** A Standard Webhooks message id: `msg_` + 24 random bytes in base64url. */
export function newWebhookMessageId(): string {
  return `msg_${randomBytes(18).toString("base64url")}`;
}

/**
 * Enqueues `type` with `data` for every enabled endpoint of the team subscribed to it.
 * @param data the v2 resource (plain JSON).
 * @returns the number of deliveries enqueued (0 when no endpoint listens).
 */
export async function emitEvent(tx: Tx, teamId: number, type: WebhookEventType, data: unknown, now: Date = new Date()): Promise<number> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { team_id: teamId, disabled_at: null, events: { has: type } },
    select: { id: true },
  });
  for (const e of endpoints) await enqueueDelivery(tx, { teamId, endpointId: e.id, type, data, now });
  return endpoints.length;
}

/** Writes one delivery row and its job (job_key per delivery). */
export async function enqueueDelivery(
  tx: Tx,
  input: { teamId: number; endpointId: number; type: string; data: unknown; now?: Date },
): Promise<{ id: number; messageId: string }> {
  const payload = { type: input.type, timestamp: (input.now ?? new Date()).toISOString(), data: input.data };
  const row = await tx.webhookDelivery.create({
    data: {
      team_id: input.teamId,
      endpoint_id: input.endpointId,
      message_id: newWebhookMessageId(),
      event_type: input.type,
      payload: payload as Prisma.InputJsonValue,
    },
    select: { id: true, message_id: true },
  });
  await tx.$executeRaw`SELECT graphile_worker.add_job('deliver_webhook', json_build_object('deliveryId', ${row.id}::int),
    max_attempts := 25, job_key := ${`webhook_delivery:${row.id}`})`;
  return { id: row.id, messageId: row.message_id };
}

/**
 * Emits `report.submitted|updated|deleted` with the v2 report (as it is after the change; for
 * `report.deleted` as it was just before removal, so call it before discarding).
 */
export async function emitReportEvent(
  tx: Tx,
  type: "report.submitted" | "report.updated" | "report.deleted",
  reportId: number,
): Promise<number> {
  const report = await tx.report.findUnique({ where: { id: reportId }, select: { team_id: true } });
  if (!report) return 0;
  const listening = await tx.webhookEndpoint.count({ where: { team_id: report.team_id, disabled_at: null, events: { has: type } } });
  if (listening === 0) return 0;
  return emitEvent(tx, report.team_id, type, serializeReportV2(await loadReportView(reportId, tx)));
}

/** Emits `poll.created` with the v2 poll (questions included) as its creator sees it. */
export async function emitPollCreated(tx: Tx, actor: Actor, pollId: number): Promise<number> {
  const listening = await tx.webhookEndpoint.count({
    where: { team_id: actor.teamId, disabled_at: null, events: { has: "poll.created" } },
  });
  if (listening === 0) return 0;
  const row = await getPoll(actor, pollId, { withQuestions: true }, tx);
  return emitEvent(tx, actor.teamId, "poll.created", serializePollV2(row, new Set(INCLUDE_VALUES)));
}
