/**
 * POST /v2/webhooks/{webhookId}/test (issue 9): enqueues a `webhook.test` event to the endpoint;
 * 202 `{data: {delivery_id, message_id}}` (the delivery log shows the outcome). Admin only.
 */
import { apiWriteRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId } from "@/lib/api/query";
import { sendTestWebhook } from "@/lib/domain/webhooks";

type Params = { webhookId: string };

export const POST = apiWriteRoute<Params, { id: number }>({
  route: "/v2/webhooks/{webhookId}/test",
  body: "none",
  parse: ({ params }) => ({ id: parseId(params.webhookId, "Webhook") }),
  run: async ({ actor, input, tx }) => {
    const r = await sendTestWebhook(actor, input.id, tx);
    return { status: 202, body: { data: { delivery_id: r.deliveryId, message_id: r.messageId } } };
  },
});

const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
