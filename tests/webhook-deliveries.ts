/**
 * Webhook deliveries as their first attempt sends them, for tests that read the rows instead of
 * running the worker: an event about a report or poll is a reference until its first attempt
 * renders and stores its payload (issue 51, lib/api/v2/webhook-data.ts `deliveryPayload`); this
 * runs that step (and sends nothing).
 */
import { deliveryPayload } from "@/lib/api/v2/webhook-data";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The deliveries matching `where` (oldest first), each with its payload rendered and stored as at its first attempt. */
export async function firstAttemptDeliveries(where: Prisma.WebhookDeliveryWhereInput) {
  const rows = await db.webhookDelivery.findMany({ where, orderBy: { id: "asc" } });
  return Promise.all(rows.map(async (d) => ({ ...d, payload: await deliveryPayload(db, d) })));
}
