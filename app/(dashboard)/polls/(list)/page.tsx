import type { Metadata } from "next";
import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { LinkButton } from "@/components/ui/button";
import { Alert, Badge, EmptyState, ListCard, PageHeader } from "@/components/ui/card";
import { listPollCards, type PollCard } from "@/lib/domain/poll-lifecycle";
import { requireUser } from "../../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Polls" };

/** The status badge of a poll card: Paused, Closed (latest broadcast over, no next run) or Open. */
function StatusBadge({ p }: { p: PollCard }) {
  if (p.state === "paused") return <Badge tone="amber">Paused</Badge>;
  if (p.status === "open") return <Badge tone="green">Open</Badge>;
  if (p.nextRunAt) return <Badge tone="brand">Scheduled</Badge>;
  return <Badge>Closed</Badge>;
}

function PollCards({ polls, label, timezone }: { polls: PollCard[]; label: string; timezone: string }) {
  return (
    <ul className="grid gap-3 lg:grid-cols-2" aria-label={label}>
      {polls.map((p) => (
        <ListCard
          key={p.id}
          href={`/polls/${p.id}`}
          title={p.name}
          testId="poll-card"
          badges={
            <>
              {p.isAnonymous && <Badge>Anonymous</Badge>}
              <StatusBadge p={p} />
            </>
          }
        >
          <p className="mt-1 text-sm text-slate-700">{p.firstQuestion}</p>
          {p.schedule && (
            <p className="mt-1 text-xs text-slate-700" data-testid="poll-card-schedule">
              Every {p.schedule.days.join(", ")} at {p.schedule.time} ({p.schedule.timezone})
              {p.nextRunAt ? ` · next run ${formatDateTime(p.nextRunAt, timezone)}` : ""}
            </p>
          )}
          <p className="mt-2 text-xs text-slate-600">
            {p.channelName ? `#${p.channelName} · ` : ""}
            {p.memberCount} {p.memberCount === 1 ? "recipient" : "recipients"} · created {formatDateTime(p.createdAt, timezone)}
          </p>
        </ListCard>
      ))}
    </ul>
  );
}

/**
 * Polls: those the caller created (open, closed, paused, recurring with their schedule and next
 * run), then the polls the caller was asked in (issue 41 item 10), newest first.
 */
export default async function PollsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const { managed, asked } = await listPollCards(user);
  return (
    <>
      <PageHeader
        title="Polls"
        description="Polls you created and polls you were asked in."
        actions={<LinkButton href="/polls/new">New poll</LinkButton>}
      />
      {sp.deleted === "1" && (
        <div className="mb-4">
          <Alert tone="success">Poll deleted.</Alert>
        </div>
      )}
      <h2 className="mb-3 text-lg font-semibold">Your polls</h2>
      {managed.length === 0 ? (
        <EmptyState title="You have not created any polls">
          <Link href="/polls/new" className="font-medium text-brand-700 underline">
            Create a poll
          </Link>
        </EmptyState>
      ) : (
        <PollCards polls={managed} label="Your polls" timezone={user.timezone} />
      )}
      <h2 className="mt-8 mb-3 text-lg font-semibold">Polls you were asked in</h2>
      {asked.length === 0 ? (
        <EmptyState title="Nobody has asked you in a poll yet" />
      ) : (
        <PollCards polls={asked} label="Polls you were asked in" timezone={user.timezone} />
      )}
    </>
  );
}
