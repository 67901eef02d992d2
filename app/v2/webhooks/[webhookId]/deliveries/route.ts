/**
 * GET /v2/webhooks/{webhookId}/deliveries (issue 9): the endpoint's latest deliveries (the
 * delivery log), newest first, `limit` 1..100 (default 25). Admin only.
 */

import { z } from "zod";
import { json } from "@/lib/api/errors";
import { apiRoute } from "@/lib/api/handler";
import { parseId, parseWith, queryObject, zLimit } from "@/lib/api/query";
import { methodTable } from "@/lib/api/route";
import { serializeWebhookDeliveryV2 } from "@/lib/api/v2/webhooks";
import { listWebhookDeliveries } from "@/lib/domain/webhooks";

const get = apiRoute<{ webhookId: string }>("v2", async ({ actor, params, url }) => {
  const { limit } = parseWith(z.object({ limit: zLimit(25) }), queryObject(url));
  const rows = await listWebhookDeliveries(actor, parseId(params.webhookId, "Webhook"), limit);
  return json({ data: rows.map(serializeWebhookDeliveryV2), next_cursor: null, has_more: false });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methodTable("v2", { GET: get });
