import type { Metadata } from "next";
import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { LinkButton } from "@/components/ui/button";
import { Badge, EmptyState, ListCard, PageHeader } from "@/components/ui/card";
import { listPolls } from "@/lib/domain/polls";
import { requireUser } from "../../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Polls" };

/** Polls created by the caller (the API's visibility rule), newest first. */
export default async function PollsPage() {
  const user = await requireUser();
  const polls = (await listPolls(user, { states: ["active", "paused"], limit: 100, withQuestions: true })).slice(0, 100);
  return (
    <>
      <PageHeader title="Polls" description="Polls you created." actions={<LinkButton href="/polls/new">New poll</LinkButton>} />
      {polls.length === 0 ? (
        <EmptyState title="You have not created any polls">
          <Link href="/polls/new" className="font-medium text-brand-700 underline">
            Create a poll
          </Link>
        </EmptyState>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Polls">
          {polls.map((p) => (
            <ListCard
              key={p.id}
              href={`/polls/${p.id}`}
              title={p.name}
              testId="poll-card"
              badges={
                <>
                  {p.is_anonymous && <Badge>Anonymous</Badge>}
                  <Badge tone={p.state === "active" ? "green" : "amber"}>{p.state === "active" ? "Active" : "Paused"}</Badge>
                </>
              }
            >
              <p className="mt-1 text-sm text-slate-700">{p.questions?.[0]?.text}</p>
              <p className="mt-2 text-xs text-slate-600">
                {p.broadcast_channel ? `#${p.broadcast_channel.name} · ` : ""}
                {p.members.length} recipients · created {formatDateTime(p.created_at, user.timezone)}
              </p>
            </ListCard>
          ))}
        </ul>
      )}
    </>
  );
}
