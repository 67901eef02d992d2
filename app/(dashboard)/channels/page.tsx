import type { Metadata } from "next";
import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { buttonClass } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/form";
import { listChannelFeed, listTeamChannels } from "@/lib/chat/builtin";
import { requireUser } from "../load";
import { retryDeliveryAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Channels" };

const KIND: Record<string, string> = { report: "Report", poll: "Poll", question: "Question", reminder: "Reminder", digest: "Daily digest" };

/** The built-in channel feed: what was broadcast (reports, polls), newest first. */
export default async function ChannelsPage({ searchParams }: { searchParams: Promise<{ channel?: string; before?: string }> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const before = sp.before && /^\d+$/.test(sp.before) ? Number(sp.before) : undefined;
  const [channels, feed] = await Promise.all([
    listTeamChannels(user),
    listChannelFeed(user, { channel: sp.channel || undefined, before, limit: 50 }),
  ]);
  const last = feed.messages[feed.messages.length - 1];
  const olderHref = `/channels?${new URLSearchParams({ ...(sp.channel ? { channel: sp.channel } : {}), ...(last ? { before: String(last.id) } : {}) })}`;
  return (
    <>
      <PageHeader title="Channels" description="Messages the service posted to your team’s channels (built-in chat)." />
      <Card className="mb-6">
        <form method="get" className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <Field id="c-channel" label="Channel" className="sm:w-64">
            <Select id="c-channel" name="channel" defaultValue={sp.channel ?? ""}>
              <option value="">All channels</option>
              {channels.map((c) => (
                <option key={c.chatId} value={c.chatId}>
                  #{c.name} ({c.memberCount} members)
                </option>
              ))}
            </Select>
          </Field>
          <button type="submit" className={buttonClass("primary")}>
            Show
          </button>
        </form>
      </Card>
      {feed.messages.length === 0 ? (
        <EmptyState title="No messages here yet">Reports and polls appear here when they are broadcast.</EmptyState>
      ) : (
        <ol className="space-y-3" aria-label="Channel messages, newest first">
          {feed.messages.map((m) => (
            <li key={m.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="channel-message">
              <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                <span className="font-semibold text-slate-900">{m.channel ? `#${m.channel.name}` : "Direct"}</span>
                <Badge tone={m.kind === "poll" ? "brand" : "slate"}>{KIND[m.kind] ?? m.kind}</Badge>
                {m.checkinName && <span>{m.checkinName}</span>}
                <time dateTime={m.createdAt.toISOString()}>{formatDateTime(m.createdAt, user.timezone)}</time>
                {m.updatedAt.getTime() - m.createdAt.getTime() > 1000 && <span>(edited)</span>}
                {m.deliveryState === "pending" && <Badge tone="slate">Sending…</Badge>}
                {m.deliveryState === "failed" && <Badge tone="red">Delivery failed</Badge>}
              </div>
              <p className="mt-2 whitespace-pre-wrap text-sm text-slate-900">{m.text}</p>
              {m.deliveryState === "failed" && (
                <div className="mt-2 flex flex-wrap items-center gap-3 text-xs text-red-800">
                  <span>{m.deliveryError ?? "The chat platform refused the message."}</span>
                  {user.isAdmin && (
                    <form action={retryDeliveryAction}>
                      <input type="hidden" name="messageId" value={m.id} />
                      <button type="submit" className={buttonClass("secondary")}>
                        Retry delivery
                      </button>
                    </form>
                  )}
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      <div className="mt-4 flex gap-3 text-sm">
        {before && (
          <Link
            href={sp.channel ? `/channels?channel=${encodeURIComponent(sp.channel)}` : "/channels"}
            className="font-medium text-brand-700 underline"
          >
            Newest messages
          </Link>
        )}
        {feed.hasMore && (
          <Link href={olderHref} className="font-medium text-brand-700 underline">
            Older messages
          </Link>
        )}
      </div>
    </>
  );
}
