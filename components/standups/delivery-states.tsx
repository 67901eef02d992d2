import { formatDateTime } from "@/components/format";
import { buttonClass } from "@/components/ui/button";
import { Badge, EmptyState } from "@/components/ui/card";
import { DataTable, Td } from "@/components/ui/table";
import type { OccurrenceDelivery, StandupDeliveryMessage } from "@/lib/chat/standup-delivery";
import { formatOccurrenceDate } from "@/lib/domain/asking";

const KIND: Record<StandupDeliveryMessage["kind"], string> = {
  question: "Question",
  reminder: "Reminder",
  report: "Report",
  digest: "Digest",
  poll: "Poll",
  poll_results: "Poll results",
};

const VIA: Record<string, string> = { builtin: "built-in", slack: "Slack", email: "e-mail", none: "—" };

/** The state badge of one message, with the adapter when delivered and the error when failed. */
function DeliveryCell({ m, timezone }: { m: StandupDeliveryMessage; timezone: string }) {
  if (m.state === "delivered")
    return (
      <>
        <Badge tone="green">Delivered</Badge>{" "}
        <span className="text-slate-600">
          via {VIA[m.via ?? "builtin"] ?? m.via} {formatDateTime(m.deliveredAt, timezone)}
        </span>
      </>
    );
  if (m.state === "held")
    return (
      <>
        <Badge tone="slate">Held</Badge> <span className="text-slate-600">anonymous: posted once enough people answered this run</span>
      </>
    );
  if (m.state === "pending")
    return (
      <>
        <Badge tone="amber">Pending</Badge>
        {m.error && <span className="text-slate-600"> retrying after: {m.error}</span>}
      </>
    );
  return (
    <>
      <Badge tone="red">Failed</Badge> <span className="text-red-800">{m.error ?? "The chat platform refused the message."}</span>
    </>
  );
}

/**
 * Delivery state of a standup's latest occurrences: one table per occurrence listing each message
 * (question, reminder, report broadcast, digest), its recipient or channel, and delivered (via which
 * adapter) / pending / failed with the error. `retryAction` (a server action taking `messageId`)
 * adds a "Retry" button to failed messages when given (admins and the standup's creator).
 */
export function DeliveryStates({
  occurrences,
  timezone,
  retryAction,
}: {
  occurrences: OccurrenceDelivery[];
  timezone: string;
  retryAction?: (form: FormData) => Promise<void>;
}) {
  if (occurrences.length === 0) return <EmptyState title="No occurrences yet">Messages appear here once the standup has run.</EmptyState>;
  return (
    <div className="space-y-4">
      {occurrences.map((o) => (
        <section key={o.occurrenceId} aria-label={`Messages of ${formatOccurrenceDate(o.date)}`} data-testid="delivery-states">
          <h3 className="mb-2 text-sm font-semibold">{formatOccurrenceDate(o.date)}</h3>
          {o.messages.length === 0 ? (
            <p className="text-sm text-slate-600">No messages.</p>
          ) : (
            <DataTable caption={`Messages of ${formatOccurrenceDate(o.date)}`} columns={["Message", "To", "Delivery"]} className="text-sm">
              {o.messages.map((m) => (
                <tr key={m.id} data-testid="delivery-message" data-message-id={m.id}>
                  <Td>
                    {KIND[m.kind] ?? m.kind}
                    {m.removedAt && <span className="text-slate-600"> (removed)</span>}
                  </Td>
                  <Td>{m.to}</Td>
                  <Td last>
                    <span className="flex flex-wrap items-center gap-2">
                      <DeliveryCell m={m} timezone={timezone} />
                      {m.state === "failed" && retryAction && (
                        <form action={retryAction}>
                          <input type="hidden" name="messageId" value={m.id} />
                          <button type="submit" className={buttonClass("secondary")}>
                            Retry
                          </button>
                        </form>
                      )}
                    </span>
                  </Td>
                </tr>
              ))}
            </DataTable>
          )}
          {o.truncated && <p className="mt-1 text-xs text-slate-600">Only the first messages are listed.</p>}
        </section>
      ))}
    </div>
  );
}
