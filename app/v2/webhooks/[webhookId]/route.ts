/**
 * GET / PATCH / DELETE /v2/webhooks/{webhookId} (issue 9): read, change (url, events,
 * description; `enabled: true` re-enables an endpoint disabled after failures) or remove one
 * endpoint of the team. Admin only (others: 404). PATCH and DELETE accept `Idempotency-Key`.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, apiWriteRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith } from "@/lib/api/query";
import { serializeWebhookV2, webhookUpdateBodySchema } from "@/lib/api/v2/webhooks";
import { deleteWebhook, getWebhook, updateWebhook, type WebhookPatch } from "@/lib/domain/webhooks";

type Params = { webhookId: string };

export const GET = apiRoute<Params>("v2", async ({ actor, params }) => {
  return json({ data: serializeWebhookV2(await getWebhook(actor, parseId(params.webhookId, "Webhook"))) });
});

export const PATCH = apiWriteRoute<Params, { id: number; patch: WebhookPatch }>({
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

export const DELETE = apiWriteRoute<Params, { id: number }>({
  route: "/v2/webhooks/{webhookId}",
  body: "none",
  parse: ({ params }) => ({ id: parseId(params.webhookId, "Webhook") }),
  run: async ({ actor, input, tx }) => {
    await deleteWebhook(actor, input.id, tx);
    return { status: 200, body: { success: true } };
  },
});

const notAllowed = methodNotAllowed(["GET", "PATCH", "DELETE"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const OPTIONS = preflight;
