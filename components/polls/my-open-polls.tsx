import { formatDateTime } from "@/components/format";
import { LinkButton } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
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
          <li key={p.pollId} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="my-poll">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div>
                <h3 className="font-semibold">{p.name}</h3>
                <p className="text-sm text-slate-600">
                  {p.closesAt ? `Closes ${formatDateTime(p.closesAt, timeZone)}` : "Open until closed by its creator"}
                </p>
                <p className="mt-2">{p.voted ? <Badge tone="green">Voted</Badge> : <Badge tone="amber">Not voted yet</Badge>}</p>
              </div>
              <LinkButton
                href={`/polls/${p.pollId}/vote`}
                variant={p.voted ? "secondary" : "primary"}
                aria-label={`${p.voted ? "Change my vote on" : "Vote on"} ${p.name}`}
              >
                {p.voted ? "Change vote" : "Vote"}
              </LinkButton>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
