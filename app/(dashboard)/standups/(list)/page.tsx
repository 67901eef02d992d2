import type { Metadata } from "next";
import Link from "next/link";
import { formatPercent, formatTime } from "@/components/format";
import { describeNextRun } from "@/components/standups/next-run";
import { LinkButton } from "@/components/ui/button";
import { Alert, Badge, EmptyState, ListCard, PageHeader } from "@/components/ui/card";
import { getStandupSummaries } from "@/lib/domain/dashboard";
import { listStandupSettings } from "@/lib/domain/standups";
import { requireUser } from "../../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Standups" };

/** Standups list: state, schedule in its timezone, channel, members, recent participation. */
export default async function StandupsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const deleted = (await searchParams).deleted === "1";
  // Same read as GET /v1/standups?admin: what the caller takes part in or created; admins see the whole team.
  const standups = (await listStandupSettings(user, { drafts: true, teamWide: "readers" })).sort((a, b) => a.name.localeCompare(b.name));
  const summaries = await getStandupSummaries(user, { standupIds: standups.map((s) => s.id), days: 14 });
  return (
    <>
      <PageHeader
        title="Standups"
        description={user.isAdmin ? "Every standup of your team." : "Recurring check-ins you own or take part in."}
        actions={<LinkButton href="/standups/new">New standup</LinkButton>}
      />
      {deleted && (
        <div className="mb-4">
          <Alert tone="success">Standup deleted.</Alert>
        </div>
      )}
      {standups.length === 0 ? (
        <EmptyState title="No standups yet">
          <Link href="/standups/new" className="font-medium text-brand-700 underline">
            Create the first one
          </Link>
        </EmptyState>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Standups">
          {standups.map((s) => {
            const sum = summaries.get(s.id);
            return (
              <ListCard
                key={s.id}
                href={`/standups/${s.id}`}
                title={s.name}
                testId="standup-card"
                badges={
                  <>
                    {s.is_anonymous && <Badge>Anonymous</Badge>}
                    {s.is_confidential && <Badge>Confidential</Badge>}
                    <Badge tone={s.state === "active" ? "green" : "amber"}>
                      {s.state === "active" ? "Active" : s.state === "paused" ? "Paused" : "Draft"}
                    </Badge>
                  </>
                }
              >
                <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                  <dt className="text-slate-600">Schedule</dt>
                  <dd>
                    {s.days.join(", ")} at {formatTime(s.time)} <span className="text-slate-600">({s.timezone})</span>
                  </dd>
                  <dt className="text-slate-600">Next run</dt>
                  <dd data-testid="next-run">{describeNextRun(s, user.timezone)}</dd>
                  <dt className="text-slate-600">Channel</dt>
                  <dd>{s.broadcast_channel ? `#${s.broadcast_channel.name}` : "—"}</dd>
                  <dt className="text-slate-600">Members</dt>
                  <dd>{s.members.length}</dd>
                  <dt className="text-slate-600">Participation (14 days)</dt>
                  <dd>
                    {formatPercent(sum?.rate)}
                    {sum && sum.expected > 0 && (
                      <span className="text-slate-600">
                        {" "}
                        ({sum.responded}/{sum.expected})
                      </span>
                    )}
                  </dd>
                </dl>
              </ListCard>
            );
          })}
        </ul>
      )}
    </>
  );
}
