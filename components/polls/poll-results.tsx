import { VotesChart } from "@/components/charts/votes-chart";
import { formatDate } from "@/components/format";
import { OpenEndedResult } from "@/components/polls/open-ended-result";
import { Card, EmptyState } from "@/components/ui/card";
import { compactRowClass, DataTable, Td } from "@/components/ui/table";
import type { PollInstanceResult } from "@/lib/domain/votes";

/** A choice's share of all the votes on its question, as "60%" ("—" while nobody voted). */
function sharePercent(votes: number, choices: ReadonlyArray<{ votes: number }>): string {
  const total = choices.reduce((n, c) => n + c.votes, 0);
  return total ? `${Math.round((votes / total) * 100)}%` : "—";
}

/**
 * Results of poll broadcasts (lib/domain/votes.ts), newest first: per multiple-choice question a
 * bar chart and a table of votes and voters ("Hidden (anonymous)" when the poll is anonymous), per
 * open-ended question its categorized answers; a broadcast of an anonymous poll answered by fewer
 * than the team's anonymity threshold shows only how many more answers are needed. `nameOf` turns a voter's chat id into a name.
 */
export function PollResultsView({ instances, nameOf }: { instances: PollInstanceResult[]; nameOf: (chatId: string) => string }) {
  if (instances.length === 0) return <EmptyState title="No broadcasts yet" />;
  return (
    <div className="space-y-6">
      {instances.map((inst) => (
        <Card key={inst.id} title={`Broadcast of ${formatDate(inst.date)}`}>
          {inst.answersNeeded > 0 ? (
            <p className="text-sm text-slate-600" data-testid="results-suppressed">
              Results hidden to keep this anonymous poll anonymous: {inst.answersNeeded} more{" "}
              {inst.answersNeeded === 1 ? "answer is" : "answers are"} needed before they are shown.
            </p>
          ) : (
            <div className="space-y-6">
              {inst.questions.map((q) => (
                <section key={q.questionId} aria-label={q.text} data-testid="poll-question">
                  <h3 className="font-medium">{q.text}</h3>
                  <p className="mb-2 text-xs text-slate-600">
                    {q.totalResponses} responses from {q.totalResponders} members
                  </p>
                  {q.answerType === "multiple_choice" ? (
                    <>
                      <VotesChart
                        title={`Votes per choice: ${q.text}`}
                        choices={(q.choices ?? []).map((c) => ({
                          text: c.text,
                          votes: c.votes,
                          voters: c.voters ? c.voters.map((v) => nameOf(v.chatId)) : null,
                        }))}
                      />
                      <DataTable
                        caption={`Votes and voters: ${q.text}`}
                        columns={["Choice", "Votes", "Share", "Voters"]}
                        density="compact"
                        className="mt-2 text-sm"
                        testId="votes-table"
                      >
                        {(q.choices ?? []).map((c) => (
                          <tr key={c.text} className={compactRowClass}>
                            <Td density="compact">{c.text}</Td>
                            <Td density="compact">{c.votes}</Td>
                            <Td density="compact">{sharePercent(c.votes, q.choices ?? [])}</Td>
                            <Td density="compact" last>
                              {c.voters === null ? (
                                <span className="text-slate-600">Hidden (anonymous)</span>
                              ) : (
                                c.voters.map((v) => nameOf(v.chatId)).join(", ") || "—"
                              )}
                            </Td>
                          </tr>
                        ))}
                      </DataTable>
                    </>
                  ) : (
                    <OpenEndedResult q={q} nameOf={nameOf} />
                  )}
                </section>
              ))}
            </div>
          )}
        </Card>
      ))}
    </div>
  );
}
