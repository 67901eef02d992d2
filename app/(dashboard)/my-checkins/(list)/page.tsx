import type { Metadata } from "next";
import { formatDateTime, formatTime } from "@/components/format";
import { MyOpenPolls } from "@/components/polls/my-open-polls";
import { ActionForm } from "@/components/ui/action-form";
import { LinkButton } from "@/components/ui/button";
import { Alert, Badge, EmptyState, PageHeader, TaskCard } from "@/components/ui/card";
import { formatOccurrenceDate } from "@/lib/domain/asking";
import { listMyCheckins } from "@/lib/domain/dashboard";
import { requireUser } from "../../load";
import { deleteCheckinAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "My check-ins" };

/** The caller's standups: answer a pending check-in (each shown with its date), edit or delete the report sent today. */
export default async function MyCheckinsPage({ searchParams }: { searchParams: Promise<{ saved?: string; deleted?: string }> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const checkins = await listMyCheckins(user);
  return (
    <>
      <PageHeader title="My check-ins" description="Answer your standups here instead of in chat." />
      {sp.saved && (
        <div className="mb-4">
          <Alert tone="success">Your report was sent.</Alert>
        </div>
      )}
      {sp.deleted && (
        <div className="mb-4">
          <Alert tone="success">Your report was deleted.</Alert>
        </div>
      )}
      <MyOpenPolls actor={user} timeZone={user.timezone} />
      {checkins.length === 0 ? (
        <EmptyState title="You are not a member of any active standup" />
      ) : (
        <ul className="space-y-3" aria-label="My standups">
          {checkins.map((c) => (
            <TaskCard
              key={c.standupId}
              testId="my-checkin"
              title={c.name}
              schedule={`${c.days.join(", ")} at ${formatTime(c.time)} (${c.timezone})`}
              status={
                c.todayReport ? (
                  <Badge tone="green">Answered today · {formatDateTime(c.todayReport.submittedAt, user.timezone)}</Badge>
                ) : c.pendingOccurrences.length > 0 ? (
                  <span className="flex flex-wrap gap-1.5" data-testid="pending-dates">
                    {c.pendingOccurrences.map((p) => (
                      <Badge key={p.occurrenceId} tone="amber">
                        Pending for {formatOccurrenceDate(p.date)}
                      </Badge>
                    ))}
                  </span>
                ) : c.dueToday ? (
                  <Badge tone="amber">Due {formatOccurrenceDate(c.today)}</Badge>
                ) : (
                  <Badge>Not scheduled today</Badge>
                )
              }
              actions={
                <div className="flex flex-wrap gap-2">
                  {c.todayReport ? (
                    <>
                      <LinkButton href={`/my-checkins/${c.standupId}`} variant="secondary" aria-label={`Edit today's report for ${c.name}`}>
                        Edit report
                      </LinkButton>
                      <ActionForm
                        action={deleteCheckinAction}
                        className="inline"
                        submitLabel="Delete"
                        pendingLabel="Deleting…"
                        variant="danger"
                        submitAriaLabel={`Delete today's report for ${c.name}`}
                        confirm={`Delete today's report for ${c.name}? It is also removed from the channel.`}
                      >
                        <input type="hidden" name="reportId" value={c.todayReport.id} />
                      </ActionForm>
                    </>
                  ) : (
                    <LinkButton href={`/my-checkins/${c.standupId}`} aria-label={`Answer ${c.name}`}>
                      Answer
                    </LinkButton>
                  )}
                </div>
              }
            />
          ))}
        </ul>
      )}
    </>
  );
}
