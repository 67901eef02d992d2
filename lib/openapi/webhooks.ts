/**
 * OpenAPI operations of the outgoing webhooks extension (issue 9), merged into the document by
 * lib/openapi/document.ts with its own helpers (`op`, `v2Responses`, `json`, the
 * Idempotency-Key header).
 */
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from "zod-openapi";
import {
  webhookCreateBodySchema,
  webhookCreatedV2Schema,
  webhookDeliveryV2Schema,
  webhookListQuerySchema,
  webhookUpdateBodySchema,
  webhookV2Schema,
} from "@/lib/api/v2/webhooks";

type Helpers = {
  op: (
    tag: "Webhooks",
    id: string,
    summary: string,
    rest: Omit<ZodOpenApiOperationObject, "tags" | "operationId" | "summary">,
  ) => ZodOpenApiOperationObject;
  v2Responses: (
    success: { status: 200 | 201 | 202; description: string; schema: z.ZodType },
    errors: { 400?: ["INVALID_PARAMETER"]; 404?: true; 422?: true },
    write?: boolean,
  ) => ZodOpenApiResponsesObject;
  json: (schema: z.ZodType) => Record<string, { schema: z.ZodType }>;
  writeHeaders: { header: z.ZodObject };
};

export const WEBHOOKS_TAG = {
  name: "Webhooks",
  description:
    "Outgoing webhooks (Standard Webhooks): admin-only endpoints that receive signed `{type, timestamp, data}` events. " +
    "Verify `webhook-signature` with any Standard Webhooks library and the endpoint's `whsec_` secret.",
} as const;

const webhookIdPath = z.object({ webhookId: z.number().int().min(1).max(2147483647).meta({ description: "Webhook id.", example: 42 }) });
const data = (schema: z.ZodType) => z.strictObject({ data: schema });
const list = (schema: z.ZodType) => z.strictObject({ data: z.array(schema), next_cursor: z.string().nullable(), has_more: z.boolean() });

/** The webhook paths. */
export function webhookPaths(h: Helpers): ZodOpenApiPathsObject {
  const write = { path: webhookIdPath, ...h.writeHeaders };
  return {
    "/v2/webhooks": {
      get: h.op("Webhooks", "listWebhooks", "List the team's webhook endpoints (admins)", {
        requestParams: { query: webhookListQuerySchema },
        responses: h.v2Responses(
          { status: 200, description: "List envelope of webhooks.", schema: list(webhookV2Schema) },
          { 400: ["INVALID_PARAMETER"], 404: true },
        ),
      }),
      post: h.op("Webhooks", "createWebhook", "Create a webhook endpoint; the secret is returned once", {
        requestParams: { ...h.writeHeaders },
        requestBody: { required: true, content: h.json(webhookCreateBodySchema) },
        responses: h.v2Responses(
          { status: 201, description: "`{data: webhook + secret}`.", schema: webhookCreatedV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
          true,
        ),
      }),
    },
    "/v2/webhooks/{webhookId}": {
      get: h.op("Webhooks", "getWebhook", "Get one webhook endpoint", {
        requestParams: { path: webhookIdPath },
        responses: h.v2Responses({ status: 200, description: "`{data: webhook}`.", schema: data(webhookV2Schema) }, { 404: true }),
      }),
      patch: h.op("Webhooks", "updateWebhook", "Change url, events or description; `enabled: true` re-enables it", {
        requestParams: write,
        requestBody: { required: true, content: h.json(webhookUpdateBodySchema) },
        responses: h.v2Responses(
          { status: 200, description: "`{data: webhook}`.", schema: data(webhookV2Schema) },
          { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
          true,
        ),
      }),
      delete: h.op("Webhooks", "deleteWebhook", "Remove a webhook endpoint and its delivery log", {
        requestParams: write,
        responses: h.v2Responses(
          { status: 200, description: "`{success: true}`.", schema: z.strictObject({ success: z.literal(true) }) },
          { 404: true, 422: true },
          true,
        ),
      }),
    },
    "/v2/webhooks/{webhookId}/test": {
      post: h.op("Webhooks", "testWebhook", "Send a `webhook.test` event to the endpoint", {
        requestParams: write,
        responses: h.v2Responses(
          {
            status: 202,
            description: "`{data: {delivery_id, message_id}}`; the delivery log shows the outcome.",
            schema: data(z.strictObject({ delivery_id: z.number().int(), message_id: z.string() })),
          },
          { 404: true, 422: true },
          true,
        ),
      }),
    },
    "/v2/webhooks/{webhookId}/deliveries": {
      get: h.op("Webhooks", "listWebhookDeliveries", "The endpoint's latest deliveries (delivery log)", {
        requestParams: { path: webhookIdPath, query: z.object({ limit: webhookListQuerySchema.shape.limit }) },
        responses: h.v2Responses(
          { status: 200, description: "List envelope of deliveries (one page).", schema: list(webhookDeliveryV2Schema) },
          { 400: ["INVALID_PARAMETER"], 404: true },
        ),
      }),
    },
  };
}
