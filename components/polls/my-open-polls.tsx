import { formatDateTime } from "@/components/format";
import { LinkButton } from "@/components/ui/button";
import { Badge, TaskCard } from "@/components/ui/card";
import type { Actor } from "@/lib/domain/actor";
import { listMyOpenPolls } from "@/lib/domain/poll-views";

/**
 * "My check-ins" section: the open polls the member is asked in (lib/domain/poll-views.ts
 * `listMyOpenPolls`), each with whether they voted, when it closes (in `timeZone`) and a link to
 * the vote page. Renders nothing when there is none.
 */
export async function MyOpenPolls({ actor, timeZone }: { actor: Actor; timeZone: string }) {
  const polls = await listMyOpenPolls(actor);
  if (polls.length === 0) return null;
  return (
    <section className="mb-6" aria-labelledby="my-open-polls">
      <h2 id="my-open-polls" className="mb-3 text-lg font-semibold">
        Open polls
      </h2>
      <ul className="space-y-3" aria-label="Open polls">
        {polls.map((p) => (
          <TaskCard
            key={p.pollId}
            testId="my-poll"
            title={p.name}
            headingLevel={3}
            schedule={p.closesAt ? `Closes ${formatDateTime(p.closesAt, timeZone)}` : "Open until closed by its creator"}
            status={p.voted ? <Badge tone="green">Voted</Badge> : <Badge tone="amber">Not voted yet</Badge>}
            actions={
              <LinkButton
                href={`/polls/${p.pollId}/vote`}
                variant={p.voted ? "secondary" : "primary"}
                aria-label={`${p.voted ? "Change my vote on" : "Vote on"} ${p.name}`}
              >
                {p.voted ? "Change vote" : "Vote"}
              </LinkButton>
            }
          />
        ))}
      </ul>
    </section>
  );
}
