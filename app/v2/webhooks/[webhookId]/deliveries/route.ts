/**
 * GET /v2/webhooks/{webhookId}/deliveries (issue 9): the endpoint's latest deliveries (the
 * delivery log), newest first, `limit` 1..100 (default 25). Admin only.
 */

import { z } from "zod";
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject, zLimit } from "@/lib/api/query";
import { serializeWebhookDeliveryV2 } from "@/lib/api/v2/webhooks";
import { listWebhookDeliveries } from "@/lib/domain/webhooks";

export const GET = apiRoute<{ webhookId: string }>("v2", async ({ actor, params, url }) => {
  const { limit } = parseWith(z.object({ limit: zLimit(25) }), queryObject(url));
  const rows = await listWebhookDeliveries(actor, parseId(params.webhookId, "Webhook"), limit);
  return json({ data: rows.map(serializeWebhookDeliveryV2), next_cursor: null, has_more: false });
});

const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
