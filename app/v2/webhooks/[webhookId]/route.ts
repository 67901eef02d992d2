/**
 * GET / PATCH / DELETE /v2/webhooks/{webhookId} (issue 9): read, change (url, events,
 * description; `enabled: true` re-enables an endpoint disabled after failures) or remove one
 * endpoint of the team. Admin only (others: 404). PATCH and DELETE accept `Idempotency-Key`.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, apiWriteRoute } from "@/lib/api/handler";
import { parseId, parseWith } from "@/lib/api/query";
import { methodTable } from "@/lib/api/route";
import { serializeWebhookV2, webhookUpdateBodySchema } from "@/lib/api/v2/webhooks";
import { deleteWebhook, getWebhook, updateWebhook, type WebhookPatch } from "@/lib/domain/webhooks";

type Params = { webhookId: string };

const get = apiRoute<Params>("v2", async ({ actor, params }) => {
  return json({ data: serializeWebhookV2(await getWebhook(actor, parseId(params.webhookId, "Webhook"))) });
});

const patch = apiWriteRoute<Params, { id: number; patch: WebhookPatch }>({
  route: "/v2/webhooks/{webhookId}",
  body: "json",
  parse: ({ params, body }) => ({
    id: parseId(params.webhookId, "Webhook"),
    patch: parseWith(webhookUpdateBodySchema, body),
  }),
  run: async ({ actor, input, tx }) => ({
    status: 200,
    body: { data: serializeWebhookV2(await updateWebhook(actor, input.id, input.patch, tx)) },
  }),
});

const remove = apiWriteRoute<Params, { id: number }>({
  route: "/v2/webhooks/{webhookId}",
  body: "none",
  parse: ({ params }) => ({ id: parseId(params.webhookId, "Webhook") }),
  run: async ({ actor, input, tx }) => {
    await deleteWebhook(actor, input.id, tx);
    return { status: 200, body: { success: true } };
  },
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methodTable("v2", { GET: get, PATCH: patch, DELETE: remove });
