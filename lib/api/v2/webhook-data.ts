/**
 * The `data` of webhook events about a resource (issue 51): the domain writes an event about a
 * report or a poll as a reference (`resource_kind`, `resource_id`, lib/domain/webhook-events.ts);
 * the delivery renders it here, with the v2 serializers, at its FIRST attempt and stores the
 * payload, so every retry sends the same bytes. `data` is thus the resource as it is at the first
 * send (usually within a second of the change): `report.*` carry the v2 report (spec §2.4; a
 * discarded report still renders, so `report.deleted` carries it as it was), `poll.created` the v2
 * poll with its questions and every member field (spec §2.3).
 */
import { serializePollV2 } from "@/lib/api/v2/polls";
import { serializeReportV2 } from "@/lib/api/v2/reports";
import { INCLUDE_VALUES } from "@/lib/api/v2/standups";
import { db, type Tx } from "@/lib/db";
import { NotFoundError } from "@/lib/domain/errors";
import { loadPollView } from "@/lib/domain/polls";
import { loadReportView } from "@/lib/domain/report-writes";
import type { WebhookResource } from "@/lib/domain/webhook-events";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The v2 rendering of `resource` as it is now, read through `client`.
 * @returns the event's `data` (plain JSON), or null when the resource no longer exists.
 */
export async function renderWebhookData(resource: WebhookResource, client: Tx = db): Promise<unknown | null> {
  if (resource.kind === "poll") {
    const poll = await loadPollView(resource.id, client);
    return poll && serializePollV2(poll, new Set(INCLUDE_VALUES));
  }
  try {
    return serializeReportV2(await loadReportView(resource.id, client));
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/** The columns of a delivery that `deliveryPayload` reads. */
export type DeliveryEvent = {
  id: number;
  event_type: string;
  created_at: Date;
  payload: Prisma.JsonValue | null;
  resource_kind: WebhookResource["kind"] | null;
  resource_id: number | null;
};

/**
 * The payload `{type, timestamp, data}` a delivery sends: the stored one, or — at the first
 * attempt of a reference — rendered now (`timestamp`: the event time, `created_at`) and stored
 * where none is stored yet, then read back as stored, so this attempt and every retry send the
 * same bytes (`JSON.stringify` of the stored JSON).
 * @returns the payload, or null when the referenced resource no longer exists.
 */
export async function deliveryPayload(client: Tx, d: DeliveryEvent): Promise<Prisma.JsonValue | null> {
  if (d.payload !== null) return d.payload;
  if (d.resource_kind === null || d.resource_id === null) return null;
  const data = await renderWebhookData({ kind: d.resource_kind, id: d.resource_id }, client);
  if (data === null) return null;
  const payload = { type: d.event_type, timestamp: d.created_at.toISOString(), data } as Prisma.InputJsonValue;
  await client.webhookDelivery.updateMany({ where: { id: d.id, payload: { equals: Prisma.DbNull } }, data: { payload } });
  const stored = await client.webhookDelivery.findUnique({ where: { id: d.id }, select: { payload: true } });
  return stored?.payload ?? null;
}
