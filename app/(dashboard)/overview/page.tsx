import type { Metadata } from "next";
import Link from "next/link";
import { BlockerList } from "@/components/blockers/blocker-list";
import { ParticipationTrendChart } from "@/components/charts/participation-chart";
import { formatPercent, formatShortDate } from "@/components/format";
import { ReportCard } from "@/components/reports/report-card";
import { toReportCard } from "@/components/reports/to-card";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { StatCard } from "@/components/ui/stat-card";
import { Td } from "@/components/ui/table";
import { TableCard } from "@/components/ui/table-card";
import { DASHBOARD_READS } from "@/lib/domain/access";
import { listBlockers } from "@/lib/domain/blockers";
import { getOverview } from "@/lib/domain/dashboard";
import { NotFoundError } from "@/lib/domain/errors";
import { listDashboardStandups } from "@/lib/domain/member-participation";
import { getTodayOverview } from "@/lib/domain/overview";
import { listReports, teamPeopleNames } from "@/lib/domain/reports";
import { listStandupSummaries, type OccurrenceSummaryView } from "@/lib/domain/summaries";
import { requireUser } from "../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Overview" };

/**
 * Overview: today's runs (who has not answered yet), open blockers, this week's participation
 * against last week's, this week's occurrences, the 30-day trend and the latest reports.
 */
export default async function OverviewPage() {
  const user = await requireUser();
  const now = new Date();
  const [today, blockers, overview, reports, names] = await Promise.all([
    getTodayOverview(user, { timezone: user.timezone, now }),
    listBlockers(user, { status: "open", since: new Date(now.getTime() - 30 * 86_400_000) }),
    getOverview(user, { timezone: user.timezone }),
    listReports(user, {
      since: new Date(now.getTime() - 7 * 86_400_000),
      until: new Date(now.getTime() + 60_000),
      limit: 5,
      withAnswers: true,
      teamWide: "readers",
    }),
    teamPeopleNames(user),
  ]);
  const summaries = await latestSummaries(user);
  return (
    <>
      <PageHeader title="Overview" description={`${user.teamName} · week of ${formatShortDate(overview.weekStart)}`} />
      <div className="space-y-6">
        <div className="grid gap-4 sm:grid-cols-3">
          <StatCard label="Not answered yet today" value={today.standups.reduce((n, s) => n + s.pending, 0)} testId="pending-today" />
          <StatCard
            label="Open blockers"
            testId="open-blockers"
            value={
              <Link href="/blockers" className="text-brand-700 underline">
                {blockers.length}
              </Link>
            }
          />
          <StatCard
            label="Participation this week"
            value={formatPercent(today.thisWeek.rate)}
            testId="week-rate"
            sub={
              <span data-testid="last-week-rate">
                last week {formatPercent(today.lastWeek.rate)}
                <WeekDelta now={today.thisWeek.rate} before={today.lastWeek.rate} />
              </span>
            }
          />
        </div>

        <TableCard
          title={`Today (${formatShortDate(today.today)})`}
          empty="No standup has run today yet"
          caption="Today’s standups: who answered and who has not yet"
          columns={["Standup", "Answered", "Excused", "Not yet", "Who has not answered"]}
          className="min-w-[36rem] text-sm"
          wrapperClassName="overflow-x-auto"
          testId="today-table"
          rows={today.standups}
          row={(s) => (
            <tr key={s.occurrenceId}>
              <Td>
                <Link href={`/reports?standup=${s.standupId}&date=${s.date}`} className="text-brand-700 underline">
                  {s.name}
                </Link>
              </Td>
              <Td className="whitespace-nowrap">
                {s.answered}/{s.asked - s.excused}
              </Td>
              <Td>{s.excused}</Td>
              <Td>{s.pending}</Td>
              <Td last>
                {s.pendingMembers === null ? (
                  <span className="text-slate-600">Anonymous standup</span>
                ) : s.pendingMembers.length === 0 ? (
                  <span className="text-slate-600">Everyone answered</span>
                ) : (
                  s.pendingMembers.map((m, i) => (
                    <span key={m.chatId}>
                      {i > 0 && ", "}
                      <Link href={`/members/${m.chatId}`} className="underline">
                        {m.realname}
                      </Link>
                    </span>
                  ))
                )}
              </Td>
            </tr>
          )}
        />

        <Card title="Open blockers" moreLink={{ href: "/blockers", label: "All blockers" }}>
          {blockers.length === 0 ? <EmptyState title="Nobody is blocked" /> : <BlockerList items={blockers.slice(0, 5)} compact />}
        </Card>

        <TableCard
          title="This week’s occurrences"
          empty="Nothing ran this week yet"
          caption="This week’s occurrences and their participation"
          columns={["Date", "Standup", "Responded", "Excused", "Rate"]}
          className="min-w-[28rem] text-sm"
          wrapperClassName="overflow-x-auto"
          rows={overview.week}
          row={(o) => (
            <tr key={o.occurrenceId}>
              <Td className="whitespace-nowrap">{formatShortDate(o.date)}</Td>
              <Td>
                <Link href={`/standups/${o.checkinId}`} className="text-brand-700 underline">
                  {o.standupName}
                </Link>
              </Td>
              <Td>
                {o.responded}/{o.expected}
              </Td>
              <Td>{o.excused}</Td>
              <Td last>{formatPercent(o.rate)}</Td>
            </tr>
          )}
        />

        <Card title="Participation trend (30 days)">
          {overview.trend.every((p) => p.expected === 0) ? (
            <EmptyState title="No participation data in the last 30 days" />
          ) : (
            <ParticipationTrendChart
              title="Daily participation over the last 30 days, all standups"
              points={overview.trend.map((p) => ({
                date: p.date,
                label: formatShortDate(p.date),
                responded: p.responded,
                expected: p.expected,
                rate: p.rate,
              }))}
            />
          )}
        </Card>

        {summaries.length > 0 && (
          <Card title="Latest summaries">
            <ul className="space-y-4" data-testid="latest-summaries">
              {summaries.map(({ name, summary }) => (
                <li key={summary.id}>
                  <h3 className="text-sm font-semibold text-slate-900">
                    {name} · {formatShortDate(summary.date)}
                  </h3>
                  <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-800">{summary.text}</p>
                </li>
              ))}
            </ul>
          </Card>
        )}

        <Card title="Latest reports" moreLink={{ href: "/reports", label: "All reports" }}>
          {reports.length === 0 ? (
            <EmptyState title="No reports in the last 7 days" />
          ) : (
            <div className="space-y-3">
              {reports.slice(0, 5).map((r) => (
                <ReportCard key={r.id} report={toReportCard(r, names)} timezone={user.timezone} />
              ))}
            </div>
          )}
        </Card>
      </div>
    </>
  );
}

/** "▲ 5 pts" / "▼ 3 pts" change of this week's rate against last week's. */
function WeekDelta({ now, before }: { now: number | null; before: number | null }) {
  if (now === null || before === null) return null;
  const pts = Math.round((now - before) * 100);
  if (pts === 0) return <span> · no change</span>;
  return (
    <span className={pts > 0 ? "text-green-800" : "text-red-800"}>
      {" "}
      · {pts > 0 ? "▲" : "▼"} {Math.abs(pts)} pts
    </span>
  );
}

/** The newest summary of each standup the viewer reads (at most 5, newest first); none when summaries are off. */
async function latestSummaries(user: Parameters<typeof listDashboardStandups>[0]) {
  const standups = (await listDashboardStandups(user)).filter((s) => s.state === "active").slice(0, 20);
  const found = await Promise.all(
    standups.map((s) =>
      listStandupSummaries(user, s.id, { limit: 1 }, DASHBOARD_READS)
        .then((rows) => (rows[0] ? { name: s.name, summary: rows[0] } : null))
        .catch((err) => {
          // Drafts and confidential standups of others are not readable (lib/domain/access.ts).
          if (err instanceof NotFoundError) return null;
          throw err;
        }),
    ),
  );
  return found
    .filter((x): x is { name: string; summary: OccurrenceSummaryView } => x !== null)
    .sort((a, b) => b.summary.date.localeCompare(a.summary.date))
    .slice(0, 5);
}
