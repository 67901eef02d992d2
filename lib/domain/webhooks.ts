/**
 * Outgoing webhook endpoints (issue 9, a v2 extension): team admins list, create, read, change and
 * remove the endpoints of their team, read an endpoint's delivery log and send it a test event.
 * Everyone else gets NOT_FOUND (v2 never reveals what it will not show). The signing secret
 * (`whsec_` + base64 of 24 random bytes, Standard Webhooks) is returned by `createWebhook` only.
 * URLs pass lib/domain/webhook-url.ts (http/https; no private or link-local targets unless
 * WEBHOOKS_ALLOW_PRIVATE=true).
 */
import { randomBytes } from "node:crypto";
import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { enqueueDelivery, TEST_EVENT_TYPE, type WebhookEventType } from "@/lib/domain/webhook-events";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";
import { deliverySettings } from "@/lib/env";

export const webhookSelect = {
  id: true,
  url: true,
  events: true,
  description: true,
  disabled_at: true,
  disabled_reason: true,
  created_at: true,
  updated_at: true,
} as const;

export type WebhookView = {
  id: number;
  url: string;
  events: string[];
  description: string;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
};

export type WebhookInput = { url: string; events: WebhookEventType[]; description?: string };
export type WebhookPatch = Partial<WebhookInput> & { enabled?: boolean };

function requireAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new NotFoundError("Webhook");
}

async function checkUrl(url: string): Promise<void> {
  const problem = await webhookUrlProblem(url, { allowPrivate: deliverySettings().webhooksAllowPrivate });
  if (problem) throw new InvalidParameterError(`url: ${problem}`);
}

/** A new Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * The team's endpoints, newest first, keyset after `(createdAt, id)`.
 * @returns up to limit + 1 rows (the caller pages them).
 */
export async function listWebhooks(
  actor: Actor,
  input: { limit: number; after?: { createdAt: Date; id: number } },
  tx: Tx = db,
): Promise<WebhookView[]> {
  requireAdmin(actor);
  const a = input.after;
  return tx.webhookEndpoint.findMany({
    where: {
      team_id: actor.teamId,
      ...(a ? { created_at: { lte: a.createdAt }, OR: [{ created_at: { lt: a.createdAt } }, { id: { lt: a.id } }] } : {}),
    },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: input.limit + 1,
    select: webhookSelect,
  });
}

/** One endpoint of the actor's team. @throws NotFoundError */
export async function getWebhook(actor: Actor, id: number, tx: Tx = db): Promise<WebhookView> {
  requireAdmin(actor);
  const row = await tx.webhookEndpoint.findFirst({ where: { id, team_id: actor.teamId }, select: webhookSelect });
  if (!row) throw new NotFoundError("Webhook");
  return row;
}

/** Creates an endpoint. @returns the endpoint and its secret (shown once). @throws InvalidParameterError for a refused URL. */
export async function createWebhook(actor: Actor, input: WebhookInput, tx?: Tx): Promise<{ webhook: WebhookView; secret: string }> {
  requireAdmin(actor);
  await checkUrl(input.url);
  const secret = newWebhookSecret();
  const webhook = await inTransaction(tx, (t) =>
    t.webhookEndpoint.create({
      data: {
        team_id: actor.teamId,
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? "",
        secret,
        created_by_id: actor.userId,
      },
      select: webhookSelect,
    }),
  );
  return { webhook, secret };
}

/** Changes url/events/description; `enabled: true` re-enables a disabled endpoint (failure count reset), `false` disables it. */
export async function updateWebhook(actor: Actor, id: number, patch: WebhookPatch, tx?: Tx): Promise<WebhookView> {
  requireAdmin(actor);
  if (patch.url !== undefined) await checkUrl(patch.url);
  return inTransaction(tx, async (t) => {
    const current = await getWebhook(actor, id, t);
    return t.webhookEndpoint.update({
      where: { id: current.id },
      data: {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.enabled === true ? { disabled_at: null, disabled_reason: null, consecutive_failures: 0 } : {}),
        ...(patch.enabled === false && !current.disabled_at ? { disabled_at: new Date(), disabled_reason: "disabled by an admin" } : {}),
      },
      select: webhookSelect,
    });
  });
}

/** Removes an endpoint and its delivery log (queued deliveries are dropped). */
export async function deleteWebhook(actor: Actor, id: number, tx?: Tx): Promise<void> {
  await inTransaction(tx, async (t) => {
    const current = await getWebhook(actor, id, t);
    await t.webhookEndpoint.delete({ where: { id: current.id } });
  });
}

/** Enqueues a `webhook.test` event to one endpoint (even a disabled one is not sent: it fails visibly). */
export async function sendTestWebhook(actor: Actor, id: number, tx?: Tx): Promise<{ deliveryId: number; messageId: string }> {
  return inTransaction(tx, async (t) => {
    const current = await getWebhook(actor, id, t);
    const r = await enqueueDelivery(t, {
      teamId: actor.teamId,
      endpointId: current.id,
      type: TEST_EVENT_TYPE,
      data: { webhook_id: current.id, message: "This is a test event from the Team Check-in Service." },
    });
    return { deliveryId: r.id, messageId: r.messageId };
  });
}

export type WebhookDeliveryView = {
  id: number;
  message_id: string;
  event_type: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
};

/** The latest deliveries of one endpoint, newest first (the delivery log). */
export async function listWebhookDeliveries(actor: Actor, id: number, limit = 50, tx: Tx = db): Promise<WebhookDeliveryView[]> {
  const current = await getWebhook(actor, id, tx);
  return tx.webhookDelivery.findMany({
    where: { endpoint_id: current.id },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(limit, 1), 100),
    select: {
      id: true,
      message_id: true,
      event_type: true,
      state: true,
      attempts: true,
      last_status_code: true,
      last_error: true,
      next_attempt_at: true,
      delivered_at: true,
      created_at: true,
    },
  });
}
