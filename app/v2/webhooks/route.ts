/**
 * GET /v2/webhooks: the team's outgoing webhook endpoints, newest first (list envelope, cursor).
 * POST /v2/webhooks: creates one; 201 `{data: webhook + secret}` (the only time the secret is
 * shown). Admin only (others: 404). Accepts `Idempotency-Key`. Issue 9, a v2 extension.
 */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, apiWriteRoute } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import { methodTable } from "@/lib/api/route";
import {
  serializeWebhookV2,
  WEBHOOK_LIST_BINDING,
  webhookCreateBodySchema,
  webhookCursorPosition,
  webhookListAfter,
  webhookListQuerySchema,
} from "@/lib/api/v2/webhooks";
import { createWebhook, listWebhooks } from "@/lib/domain/webhooks";

const get = apiRoute("v2", async ({ url, actor }) => {
  const query = parseWith(webhookListQuerySchema, queryObject(url));
  const rows = await listWebhooks(actor, { limit: query.limit, after: webhookListAfter(query.cursor) });
  return json(listEnvelope(pageOf(rows, query.limit), serializeWebhookV2, webhookCursorPosition, WEBHOOK_LIST_BINDING));
});

const post = apiWriteRoute({
  route: "/v2/webhooks",
  body: "json",
  parse: ({ body }) => parseWith(webhookCreateBodySchema, body),
  run: async ({ actor, input, tx }) => {
    const { webhook, secret } = await createWebhook(actor, input, tx);
    return { status: 201, body: { data: { ...serializeWebhookV2(webhook), secret } } };
  },
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methodTable("v2", { GET: get, POST: post });
