import type { Metadata } from "next";
import Link from "next/link";
import { ParticipationTrendChart } from "@/components/charts/participation-chart";
import { formatPercent, formatShortDate } from "@/components/format";
import { ReportCard } from "@/components/reports/report-card";
import { toReportCard } from "@/components/reports/to-card";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { DataTable, Td } from "@/components/ui/table";
import { listTeamMembers } from "@/lib/domain/absences";
import { getOverview } from "@/lib/domain/dashboard";
import { listReports } from "@/lib/domain/reports";
import { requireUser } from "../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Overview" };

/** Overview: this week's occurrences and participation, 30-day trend, latest reports. */
export default async function OverviewPage() {
  const user = await requireUser();
  const now = new Date();
  const [overview, reports, team] = await Promise.all([
    getOverview(user, { timezone: user.timezone }),
    listReports(user, {
      since: new Date(now.getTime() - 7 * 86_400_000),
      until: new Date(now.getTime() + 60_000),
      limit: 5,
      withAnswers: true,
      teamWide: "readers",
    }),
    listTeamMembers(user),
  ]);
  const names = new Map(team.map((m) => [m.chatId, m.realname]));
  return (
    <>
      <PageHeader title="Overview" description={`${user.teamName} · week of ${formatShortDate(overview.weekStart)}`} />
      <div className="space-y-6">
        <div className="grid gap-4 sm:grid-cols-3">
          <Card>
            <p className="text-sm text-slate-600">Standups you can see</p>
            <p className="mt-1 text-2xl font-semibold">{overview.standupCount}</p>
          </Card>
          <Card>
            <p className="text-sm text-slate-600">Occurrences this week</p>
            <p className="mt-1 text-2xl font-semibold">{overview.week.length}</p>
          </Card>
          <Card>
            <p className="text-sm text-slate-600">Participation this week</p>
            <p className="mt-1 text-2xl font-semibold" data-testid="week-rate">
              {formatPercent(overview.weekRate)}
            </p>
          </Card>
        </div>

        <Card title="This week’s occurrences">
          {overview.week.length === 0 ? (
            <EmptyState title="Nothing ran this week yet" />
          ) : (
            <DataTable
              caption="This week’s occurrences and their participation"
              columns={["Date", "Standup", "Responded", "Excused", "Rate"]}
              className="min-w-[28rem] text-sm"
              wrapperClassName="overflow-x-auto"
            >
              {overview.week.map((o) => (
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
              ))}
            </DataTable>
          )}
        </Card>

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

        <Card
          title="Latest reports"
          actions={
            <Link href="/reports" className="text-sm font-medium text-brand-700 underline">
              All reports
            </Link>
          }
        >
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
