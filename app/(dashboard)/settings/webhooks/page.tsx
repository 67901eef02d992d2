import type { Metadata } from "next";
import { formatDateTime } from "@/components/format";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { CreateWebhookForm } from "@/components/webhooks/create-webhook-form";
import { WEBHOOK_EVENT_TYPES } from "@/lib/domain/webhook-events";
import { listWebhookDeliveries, listWebhooks } from "@/lib/domain/webhooks";
import { requireUser } from "../../load";
import { createWebhookAction, deleteWebhookAction, testWebhookAction, toggleWebhookAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks" };

const STATE_TONE = { delivered: "green", pending: "slate", failed: "red" } as const;

/** Settings → Webhooks (team admins): endpoints, their signing secret once, a test event and the delivery log. */
export default async function WebhooksPage() {
  const user = await requireUser();
  if (!user.isAdmin) {
    return (
      <>
        <PageHeader title="Webhooks" description="Signed HTTP callbacks for reports, polls and runs." />
        <EmptyState title="Team admins only">Ask a team admin to add or change webhook endpoints.</EmptyState>
      </>
    );
  }
  const hooks = await listWebhooks(user, { limit: 50 });
  const logs = await Promise.all(hooks.map((h) => listWebhookDeliveries(user, h.id, 10)));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Each event is POSTed as JSON {type, timestamp, data} and signed as Standard Webhooks defines (webhook-id, webhook-timestamp, webhook-signature)."
      />
      <div className="space-y-6">
        <Card title="Add an endpoint">
          <CreateWebhookForm action={createWebhookAction} eventTypes={WEBHOOK_EVENT_TYPES} />
        </Card>
        {hooks.length === 0 ? (
          <EmptyState title="No webhook endpoints yet">Add one above to receive events.</EmptyState>
        ) : (
          hooks.map((h, i) => (
            <Card key={h.id} title={h.description || h.url}>
              <div className="space-y-3 text-sm" data-testid="webhook">
                <p className="break-all font-mono">{h.url}</p>
                <p>
                  {h.disabled_at ? <Badge tone="red">Disabled</Badge> : <Badge tone="green">Enabled</Badge>}{" "}
                  <span className="font-mono text-xs">{h.events.join(", ")}</span>
                </p>
                {h.disabled_reason && <p className="text-red-800">{h.disabled_reason}</p>}
                <div className="flex flex-wrap gap-2">
                  <form action={testWebhookAction}>
                    <input type="hidden" name="id" value={h.id} />
                    <Button type="submit" variant="secondary">
                      Send test event
                    </Button>
                  </form>
                  <form action={toggleWebhookAction}>
                    <input type="hidden" name="id" value={h.id} />
                    <input type="hidden" name="enable" value={h.disabled_at ? "1" : "0"} />
                    <Button type="submit" variant="secondary">
                      {h.disabled_at ? "Enable" : "Disable"}
                    </Button>
                  </form>
                  <ActionForm
                    action={deleteWebhookAction}
                    className="inline"
                    submitLabel="Delete"
                    pendingLabel="Deleting…"
                    variant="danger"
                    submitAriaLabel={`Delete the endpoint ${h.url}`}
                    confirm={`Delete the endpoint ${h.url}? It stops receiving events at once; its delivery log is removed.`}
                  >
                    <input type="hidden" name="id" value={h.id} />
                  </ActionForm>
                </div>
                <h3 className="font-medium text-slate-800">Latest deliveries</h3>
                {logs[i].length === 0 ? (
                  <p className="text-slate-600">Nothing sent yet.</p>
                ) : (
                  <ul className="space-y-1" aria-label={`Deliveries to ${h.url}`}>
                    {logs[i].map((d) => (
                      <li key={d.id} className="flex flex-wrap items-center gap-2">
                        <Badge tone={STATE_TONE[d.state]}>{d.state}</Badge>
                        <span className="font-mono text-xs">{d.event_type}</span>
                        <time dateTime={d.created_at.toISOString()}>{formatDateTime(d.created_at, user.timezone)}</time>
                        <span>
                          {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                          {d.last_status_code ? `, HTTP ${d.last_status_code}` : ""}
                        </span>
                        {d.last_error && d.state !== "delivered" && <span className="text-red-800">{d.last_error}</span>}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </Card>
          ))
        )}
      </div>
    </>
  );
}
