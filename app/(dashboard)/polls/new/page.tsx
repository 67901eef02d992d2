import type { Metadata } from "next";
import { PollForm } from "@/components/polls/poll-form";
import { Card, PageHeader } from "@/components/ui/card";
import { listTeamChannels } from "@/lib/domain/channel-feed";
import { requireUser } from "../../load";
import { createPollAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New poll" };

/** Create a poll: one-shot (posted now) or recurring. */
export default async function NewPollPage() {
  const user = await requireUser();
  const channels = await listTeamChannels(user);
  return (
    <>
      <PageHeader title="New poll" description="A poll posted to a channel now, or on a schedule." />
      <Card>
        <PollForm
          action={createPollAction}
          channels={channels.map((c) => ({ value: c.chatId, label: `#${c.name}` }))}
          timezone={user.timezone}
        />
      </Card>
    </>
  );
}
