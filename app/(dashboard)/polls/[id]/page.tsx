import type { Metadata } from "next";
import { VotesChart } from "@/components/charts/votes-chart";
import { formatDate } from "@/components/format";
import { OpenEndedResult } from "@/components/polls/open-ended-result";
import { buttonClass } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { compactRowClass, DataTable, Td } from "@/components/ui/table";
import { listTeamMembers } from "@/lib/domain/absences";
import { getPoll } from "@/lib/domain/polls";
import { getPollVotes } from "@/lib/domain/votes";
import { orNotFound, readIdParam, requireUser } from "../../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Poll results" };

/** Poll results per broadcast: bar charts with voters (unless anonymous); open-ended answers per category (chart, answers, how categorized). */
export default async function PollPage({ params }: { params: Promise<{ id: string }> }) {
  const id = await readIdParam(params);
  const user = await requireUser();
  const now = new Date();
  const [poll, results, team] = await orNotFound(
    Promise.all([
      getPoll(user, id, { withQuestions: true }),
      getPollVotes(user, id, { since: new Date(now.getTime() - 365 * 86_400_000), until: new Date(now.getTime() + 86_400_000) }),
      listTeamMembers(user),
    ]),
  );
  const names = new Map(team.map((m) => [m.chatId, m.realname]));
  const nameOf = (chatId: string) => names.get(chatId) ?? chatId;
  return (
    <>
      <PageHeader
        title={poll.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge tone={poll.state === "active" ? "green" : "amber"}>{poll.state === "active" ? "Active" : "Paused"}</Badge>
            {poll.is_anonymous && <Badge>Anonymous</Badge>}
            {poll.broadcast_channel && <span>Posted in #{poll.broadcast_channel.name}</span>}
            <span>{poll.members.length} recipients</span>
          </span>
        }
        actions={
          <a
            className={buttonClass("secondary")}
            href={`/exports/polls/${id}/results.csv?since=${new Date(now.getTime() - 365 * 86_400_000).toISOString().slice(0, 10)}`}
          >
            Export results (CSV)
          </a>
        }
      />
      {results.instances.length === 0 ? (
        <EmptyState title="No broadcasts yet" />
      ) : (
        <div className="space-y-6">
          {results.instances.map((inst) => (
            <Card key={inst.id} title={`Broadcast of ${formatDate(inst.date)}`}>
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
                          columns={["Choice", "Votes", "Voters"]}
                          density="compact"
                          className="mt-2 text-sm"
                          testId="votes-table"
                        >
                          {(q.choices ?? []).map((c) => (
                            <tr key={c.text} className={compactRowClass}>
                              <Td density="compact">{c.text}</Td>
                              <Td density="compact">{c.votes}</Td>
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
            </Card>
          ))}
        </div>
      )}
    </>
  );
}
