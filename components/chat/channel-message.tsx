import { MrkdwnText } from "@/components/chat/mrkdwn-text";
import { formatDateTime } from "@/components/format";
import { buttonClass } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import type { FeedMessage } from "@/lib/domain/channel-feed";

/** What each kind of message is called in the feed (never the internal name, e.g. `poll_results`). */
export const MESSAGE_KIND_LABEL: Record<FeedMessage["kind"], string> = {
  report: "Report",
  poll: "Poll",
  poll_results: "Poll results",
  question: "Question",
  reminder: "Reminder",
  digest: "Daily digest",
};

/**
 * One message of the built-in channel feed (Channels page): channel, kind, check-in, time in the
 * reader's timezone, delivery state, and the text with its Slack mrkdwn formatting rendered.
 * `retryAction` (a server action taking `messageId`) adds "Retry delivery" to a failed message.
 */
export function ChannelMessage({
  m,
  timezone,
  retryAction,
}: {
  m: FeedMessage;
  timezone: string;
  retryAction?: (form: FormData) => Promise<void>;
}) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="channel-message">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
        <span className="font-semibold text-slate-900">{m.channel ? `#${m.channel.name}` : "Direct"}</span>
        <Badge tone={m.kind === "poll" ? "brand" : "slate"}>{MESSAGE_KIND_LABEL[m.kind] ?? m.kind}</Badge>
        {m.checkinName && <span>{m.checkinName}</span>}
        <time dateTime={m.createdAt.toISOString()}>{formatDateTime(m.createdAt, timezone)}</time>
        {m.updatedAt.getTime() - m.createdAt.getTime() > 1000 && <span>(edited)</span>}
        {m.deliveryState === "pending" && <Badge tone="slate">Sending…</Badge>}
        {m.deliveryState === "failed" && <Badge tone="red">Delivery failed</Badge>}
      </div>
      <div className="mt-2 whitespace-pre-wrap text-sm text-slate-900">
        <MrkdwnText text={m.text} />
      </div>
      {m.deliveryState === "failed" && (
        <div className="mt-2 flex flex-wrap items-center gap-3 text-xs text-red-800">
          <span>{m.deliveryError ?? "The chat platform refused the message."}</span>
          {retryAction && (
            <form action={retryAction}>
              <input type="hidden" name="messageId" value={m.id} />
              <button type="submit" className={buttonClass("secondary")}>
                Retry delivery
              </button>
            </form>
          )}
        </div>
      )}
    </li>
  );
}
