import type { Metadata } from "next";
import { formatDateTime } from "@/components/format";
import { PollResultsView } from "@/components/polls/poll-results";
import { ActionForm } from "@/components/ui/action-form";
import { buttonClass, LinkButton } from "@/components/ui/button";
import { Alert, Badge, Card, PageHeader } from "@/components/ui/card";
import { getPollManagement } from "@/lib/domain/poll-lifecycle";
import { getPollOverview, getPollResultsFor } from "@/lib/domain/poll-views";
import { teamPeopleNames } from "@/lib/domain/reports";
import { orNotFound, readIdParam, requireUser } from "../../load";
import { askPollNowAction } from "../vote-actions";
import { ManagePoll } from "./manage-poll";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Poll results" };

/**
 * A poll. Its creator or a team admin sees the live results of every broadcast (bar charts with
 * voters unless anonymous; open-ended answers per category), the CSV export and "Ask now" for the
 * recipients who have not voted. A recipient who does not manage it gets a link to vote while the
 * broadcast is open, and the results after it closed when the poll shares them. Anyone else: 404.
 */
export default async function PollPage({ params }: { params: Promise<{ id: string }> }) {
  const id = await readIdParam(params);
  const user = await requireUser();
  const now = new Date();
  const poll = await orNotFound(getPollOverview(user, id, undefined, now));
  const [results, names] = poll.resultsVisible
    ? await orNotFound(Promise.all([getPollResultsFor(user, id, undefined, now), teamPeopleNames(user)]))
    : [null, new Map<string, string>()];
  const manage = poll.canManage ? await getPollManagement(user, id) : null;
  const inst = poll.instance;
  const open = Boolean(inst && !inst.closed);
  const status =
    poll.state === "paused"
      ? { tone: "amber" as const, label: "Paused" }
      : inst?.closed && !manage?.nextRunAt
        ? { tone: "slate" as const, label: "Closed" }
        : { tone: "green" as const, label: "Active" };
  return (
    <>
      <PageHeader
        title={poll.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span data-testid="poll-state">
              <Badge tone={status.tone}>{status.label}</Badge>
            </span>
            {poll.isAnonymous && <Badge>Anonymous</Badge>}
            {poll.channelName && <span>Posted in #{poll.channelName}</span>}
            <span>
              {poll.memberCount} {poll.memberCount === 1 ? "recipient" : "recipients"}
            </span>
          </span>
        }
        actions={
          poll.canManage ? (
            <a
              className={buttonClass("secondary")}
              href={`/exports/polls/${id}/results.csv?since=${new Date(now.getTime() - 365 * 86_400_000).toISOString().slice(0, 10)}`}
            >
              Export results (CSV)
            </a>
          ) : undefined
        }
      />
      {manage && <ManagePoll poll={poll} manage={manage} timezone={user.timezone} />}
      {inst && (
        <Card className="mb-6" title="Current broadcast">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="poll-status">
              {open ? <Badge tone="green">Open</Badge> : <Badge tone="amber">Closed</Badge>}
              <span>
                {inst.voters} of {inst.recipients} recipients voted
              </span>
              {inst.closesAt && (
                <span>
                  · {open ? "closes" : "closed"} {formatDateTime(inst.closesAt, user.timezone)}
                </span>
              )}
            </p>
            {poll.isRecipient && open && <LinkButton href={`/polls/${id}/vote`}>{poll.hasVoted ? "Change my vote" : "Vote"}</LinkButton>}
          </div>
          {poll.canManage && open && (
            <ActionForm
              action={askPollNowAction.bind(null, id)}
              submitLabel="Ask now"
              pendingLabel="Asking…"
              variant="secondary"
              className="mt-3 space-y-2"
              testId="ask-now"
              confirm="Ask every recipient who has not voted yet again now?"
            >
              <p className="text-xs text-slate-600">Sends the question again to recipients who have not voted.</p>
            </ActionForm>
          )}
        </Card>
      )}
      {results ? (
        <PollResultsView instances={results.instances} nameOf={(chatId) => names.get(chatId) ?? chatId} />
      ) : (
        <Alert tone="info">
          {open
            ? poll.shareResults
              ? "The results are shared with recipients once the poll closes."
              : "The results are shown to the poll's creator."
            : "This poll is closed. Its results are not shared with recipients."}
        </Alert>
      )}
    </>
  );
}
