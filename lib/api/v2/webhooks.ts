/**
 * v2 webhooks at the HTTP edge (issue 9): request schemas of POST/PATCH /v2/webhooks, the list
 * query and cursor, and the serializers. A webhook is `{id, url, events, description, enabled,
 * disabled_reason, disabled_at, created_at, updated_at}`; the 201 of POST adds `secret` once.
 */
import { z } from "zod";
import { type CursorPosition, decodeCursor } from "@/lib/api/cursor";
import { zLimit } from "@/lib/api/query";
import { InvalidParameterError } from "@/lib/domain/errors";
import { WEBHOOK_EVENT_TYPES } from "@/lib/domain/webhook-events";
import type { WebhookDeliveryView, WebhookView } from "@/lib/domain/webhooks";

const zEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }))
  .min(1, "must name at least one event")
  .max(WEBHOOK_EVENT_TYPES.length * 2);
const zUrl = z.string().trim().min(1, "is required").max(2000, "must be at most 2000 characters");
const zDescription = z.string().max(500, "must be at most 500 characters");

export const webhookCreateBodySchema = z.object({ url: zUrl, events: zEvents, description: zDescription.optional() });

export const webhookUpdateBodySchema = z
  .object({ url: zUrl.optional(), events: zEvents.optional(), description: zDescription.optional(), enabled: z.boolean().optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "give at least one of url, events, description, enabled" });

export const webhookListQuerySchema = z.object({ cursor: z.string().min(1, "must not be empty").optional(), limit: zLimit(25) });

export const WEBHOOK_LIST_BINDING = { e: "v2.webhooks" };

/** The keyset position after which a list page starts. @throws InvalidParameterError for a bad cursor. */
export function webhookListAfter(cursor: string | undefined): { createdAt: Date; id: number } | undefined {
  if (!cursor) return undefined;
  const [at, id, ...extra] = decodeCursor(cursor, WEBHOOK_LIST_BINDING);
  const createdAt = typeof at === "string" ? new Date(at) : null;
  if (!createdAt || Number.isNaN(createdAt.getTime()) || typeof id !== "number" || extra.length)
    throw new InvalidParameterError("Invalid cursor");
  return { createdAt, id };
}

export const webhookCursorPosition = (w: WebhookView): CursorPosition => [w.created_at.toISOString(), w.id];

export function serializeWebhookV2(w: WebhookView) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    enabled: w.disabled_at === null,
    disabled_reason: w.disabled_reason,
    disabled_at: w.disabled_at?.toISOString() ?? null,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

export function serializeWebhookDeliveryV2(d: WebhookDeliveryView) {
  return {
    id: d.id,
    message_id: d.message_id,
    event_type: d.event_type,
    state: d.state,
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
    delivered_at: d.delivered_at?.toISOString() ?? null,
    created_at: d.created_at.toISOString(),
  };
}

/** Response shapes (OpenAPI, lib/openapi/webhooks.ts). */
export const webhookV2Schema = z
  .strictObject({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string(),
    enabled: z.boolean().meta({ description: "False once disabled by an admin or after repeated failed deliveries." }),
    disabled_reason: z.string().nullable(),
    disabled_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "WebhookV2" });

export const webhookCreatedV2Schema = z
  .strictObject({
    data: webhookV2Schema.extend({
      secret: z.string().meta({ description: "Signing secret `whsec_<base64>` (Standard Webhooks). Shown only in this response." }),
    }),
  })
  .meta({ id: "WebhookCreatedV2" });

export const webhookDeliveryV2Schema = z
  .strictObject({
    id: z.number().int(),
    message_id: z.string().meta({ description: "The `webhook-id` header of every attempt." }),
    event_type: z.string(),
    state: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "WebhookDeliveryV2" });
