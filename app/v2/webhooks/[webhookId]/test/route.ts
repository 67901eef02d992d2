/**
 * POST /v2/webhooks/{webhookId}/test (issue 9): enqueues a `webhook.test` event to the endpoint;
 * 202 `{data: {delivery_id, message_id}}` (the delivery log shows the outcome). Admin only.
 */
import { apiWriteRoute } from "@/lib/api/handler";
import { parseId } from "@/lib/api/query";
import { methodTable } from "@/lib/api/route";
import { sendTestWebhook } from "@/lib/domain/webhooks";

type Params = { webhookId: string };

const post = apiWriteRoute<Params, { id: number }>({
  route: "/v2/webhooks/{webhookId}/test",
  body: "none",
  parse: ({ params }) => ({ id: parseId(params.webhookId, "Webhook") }),
  run: async ({ actor, input, tx }) => {
    const r = await sendTestWebhook(actor, input.id, tx);
    return { status: 202, body: { data: { delivery_id: r.deliveryId, message_id: r.messageId } } };
  },
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methodTable("v2", { POST: post });
