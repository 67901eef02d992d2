/**
 * GET /v2/webhooks: the team's outgoing webhook endpoints, newest first (list envelope, cursor).
 * POST /v2/webhooks: creates one; 201 `{data: webhook + secret}` (the only time the secret is
 * shown). Admin only (others: 404). Accepts `Idempotency-Key`. Issue 9, a v2 extension.
 */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, apiWriteRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import {
  serializeWebhookV2,
  WEBHOOK_LIST_BINDING,
  webhookCreateBodySchema,
  webhookCursorPosition,
  webhookListAfter,
  webhookListQuerySchema,
} from "@/lib/api/v2/webhooks";
import { createWebhook, listWebhooks } from "@/lib/domain/webhooks";

export const GET = apiRoute("v2", async ({ url, actor }) => {
  const query = parseWith(webhookListQuerySchema, queryObject(url));
  const rows = await listWebhooks(actor, { limit: query.limit, after: webhookListAfter(query.cursor) });
  return json(listEnvelope(pageOf(rows, query.limit), serializeWebhookV2, webhookCursorPosition, WEBHOOK_LIST_BINDING));
});

export const POST = apiWriteRoute({
  route: "/v2/webhooks",
  body: "json",
  parse: ({ body }) => parseWith(webhookCreateBodySchema, body),
  run: async ({ actor, input, tx }) => {
    const { webhook, secret } = await createWebhook(actor, input, tx);
    return { status: 201, body: { data: { ...serializeWebhookV2(webhook), secret } } };
  },
});

const notAllowed = methodNotAllowed(["GET", "POST"]);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
