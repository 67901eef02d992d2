import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ParticipationTrendChart } from "@/components/charts/participation-chart";
import { formatPercent, formatShortDate } from "@/components/format";
import { ReportCard } from "@/components/reports/report-card";
import { toReportCard } from "@/components/reports/to-card";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { getSessionUser } from "@/lib/auth/session";
import { listTeamMembers } from "@/lib/domain/absences";
import { getOverview } from "@/lib/domain/dashboard";
import { listReports } from "@/lib/domain/reports";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Overview" };

/** Overview: this week's occurrences and participation, 30-day trend, latest reports. */
export default async function OverviewPage() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in");
  const now = new Date();
  const [overview, reports, team] = await Promise.all([
    getOverview(user, { timezone: user.timezone }),
    listReports(user, {
      since: new Date(now.getTime() - 7 * 86_400_000),
      until: new Date(now.getTime() + 60_000),
      limit: 5,
      withAnswers: true,
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
            <div className="overflow-x-auto">
              <table className="w-full min-w-[28rem] text-left text-sm">
                <caption className="sr-only">This week’s occurrences and their participation</caption>
                <thead className="border-b border-slate-200 text-xs uppercase text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      Date
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Standup
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Responded
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Excused
                    </th>
                    <th scope="col" className="py-2">
                      Rate
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {overview.week.map((o) => (
                    <tr key={o.occurrenceId}>
                      <td className="py-2 pr-3 whitespace-nowrap">{formatShortDate(o.date)}</td>
                      <td className="py-2 pr-3">
                        <Link href={`/standups/${o.checkinId}`} className="text-brand-700 underline">
                          {o.standupName}
                        </Link>
                      </td>
                      <td className="py-2 pr-3">
                        {o.responded}/{o.expected}
                      </td>
                      <td className="py-2 pr-3">{o.excused}</td>
                      <td className="py-2">{formatPercent(o.rate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
