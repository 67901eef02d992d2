import type { Metadata } from "next";
import Link from "next/link";
import { ChannelMessage } from "@/components/chat/channel-message";
import { buttonClass } from "@/components/ui/button";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/form";
import { listChannelFeed, listTeamChannels } from "@/lib/domain/channel-feed";
import { requireUser } from "../load";
import { retryDeliveryAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Channels" };

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
            <ChannelMessage key={m.id} m={m} timezone={user.timezone} retryAction={user.isAdmin ? retryDeliveryAction : undefined} />
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
