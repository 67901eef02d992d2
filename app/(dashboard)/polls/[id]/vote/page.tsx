import type { Metadata } from "next";
import { formatDateTime } from "@/components/format";
import { PollResultsView } from "@/components/polls/poll-results";
import { VoteForm } from "@/components/polls/vote-form";
import { Alert, Badge, Card, PageHeader } from "@/components/ui/card";
import { getPollOverview, getPollResultsFor } from "@/lib/domain/poll-views";
import { teamPeopleNames } from "@/lib/domain/reports";
import { getBallot } from "@/lib/domain/vote-writes";
import { orNotFound, readIdParam, requireUser } from "../../../load";
import { castVoteAction } from "../../vote-actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Vote" };

/**
 * The vote form of a poll's current broadcast for one of its recipients (the link of the poll's
 * question messages, lib/domain/asking.ts `answerPath`). While open the recipient votes and may
 * change the vote; once closed the page says so and shows the results when the poll shares them.
 * Anyone who is not a recipient gets the 404 page.
 */
export default async function VotePage({ params }: { params: Promise<{ id: string }> }) {
  const id = await readIdParam(params);
  const user = await requireUser();
  const ballot = await orNotFound(getBallot(user, id));
  const overview = await orNotFound(getPollOverview(user, id));
  const results = ballot.closed && overview.resultsVisible ? await orNotFound(getPollResultsFor(user, id)) : null;
  const names = results ? await teamPeopleNames(user) : new Map<string, string>();
  return (
    <>
      <PageHeader
        title={ballot.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {ballot.closed ? <Badge tone="amber">Closed</Badge> : <Badge tone="green">Open</Badge>}
            {overview.hasVoted ? <Badge tone="green">You voted</Badge> : <Badge>Not voted yet</Badge>}
            {overview.isAnonymous && <Badge>Anonymous</Badge>}
            {ballot.closesAt && (
              <span>
                {ballot.closed ? "Closed" : "Closes"} {formatDateTime(ballot.closesAt, user.timezone)}
              </span>
            )}
          </span>
        }
      />
      {ballot.intro && <p className="mb-4 text-sm text-slate-700">{ballot.intro}</p>}
      {ballot.closed ? (
        <div className="space-y-4">
          <Alert tone="info">
            This poll is closed: votes are no longer accepted.
            {!results && " Its results are not shared with recipients."}
          </Alert>
          {results && <PollResultsView instances={results.instances} nameOf={(chatId) => names.get(chatId) ?? chatId} />}
        </div>
      ) : (
        <Card>
          <VoteForm action={castVoteAction.bind(null, id)} questions={ballot.questions} voted={overview.hasVoted} />
        </Card>
      )}
    </>
  );
}
