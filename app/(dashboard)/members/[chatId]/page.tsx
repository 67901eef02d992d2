import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DistributionTable } from "@/components/charts/distribution-table";
import { ParticipationBarChart } from "@/components/charts/participation-chart";
import { formatDate, formatPercent, formatShortDate } from "@/components/format";
import { ReportCard } from "@/components/reports/report-card";
import { toReportCard } from "@/components/reports/to-card";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { DataTable, Td } from "@/components/ui/table";
import { NotFoundError } from "@/lib/domain/errors";
import { getMemberProfile } from "@/lib/domain/member-profile";
import { requireUser } from "../../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Member" };

/** "2 h 05 min" / "12 min" from minutes. */
function formatMinutes(m: number | null): string {
  if (m === null) return "—";
  if (m < 60) return `${Math.round(m)} min`;
  return `${Math.floor(m / 60)} h ${String(Math.round(m % 60)).padStart(2, "0")} min`;
}

/** One member's page: participation per standup and week, streaks, response times, vacations, recent reports. */
export default async function MemberPage({ params }: { params: Promise<{ chatId: string }> }) {
  const user = await requireUser();
  const { chatId } = await params;
  const profile = await getMemberProfile(user, { chatId: decodeURIComponent(chatId), timezone: user.timezone }).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const names = new Map([[profile.user.chatId, profile.user.realname]]);
  return (
    <>
      <PageHeader
        title={profile.user.realname}
        description={[profile.user.title, profile.user.timezone, profile.user.deactivated ? "deactivated" : null]
          .filter(Boolean)
          .join(" · ")}
      />
      <div className="space-y-6">
        <div className="grid gap-4 sm:grid-cols-3">
          <Card>
            <p className="text-sm text-slate-600">Participation, last 90 days</p>
            <p className="mt-1 text-2xl font-semibold" data-testid="member-rate">
              {formatPercent(profile.overall.rate)}
            </p>
            <p className="text-sm text-slate-600">
              {profile.overall.answered} of {profile.overall.expected} answered · {profile.overall.excused} excused
            </p>
          </Card>
          <Card>
            <p className="text-sm text-slate-600">Best current streak</p>
            <p className="mt-1 text-2xl font-semibold">{Math.max(0, ...profile.standups.map((s) => s.streak))}</p>
            <p className="text-sm text-slate-600">answers in a row (excused days skipped)</p>
          </Card>
          <Card>
            <p className="text-sm text-slate-600">Median response time</p>
            <p className="mt-1 text-2xl font-semibold">{formatMinutes(profile.responseTime.median)}</p>
            <p className="text-sm text-slate-600">from being asked to answering</p>
          </Card>
        </div>

        <Card title="Per standup">
          {profile.standups.length === 0 ? (
            <EmptyState title="Not asked in any standup you can see in the last 90 days" />
          ) : (
            <DataTable
              caption="Participation per standup over the last 90 days"
              columns={["Standup", "Answered", "Missed", "Excused", "Rate", "Streak", "Longest"]}
              className="min-w-[32rem] text-sm"
              wrapperClassName="overflow-x-auto"
              testId="member-standups"
            >
              {profile.standups.map((s) => (
                <tr key={s.standupId}>
                  <Td>
                    <Link href={`/standups/${s.standupId}`} className="text-brand-700 underline">
                      {s.name}
                    </Link>
                  </Td>
                  <Td>{s.answered}</Td>
                  <Td>{s.missed}</Td>
                  <Td>{s.excused}</Td>
                  <Td>{formatPercent(s.rate)}</Td>
                  <Td>{s.streak}</Td>
                  <Td last>{s.longestStreak}</Td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>

        <Card title="Participation by week">
          <ParticipationBarChart
            title={`Weekly participation of ${profile.user.realname}`}
            points={profile.weeks.map((w) => ({
              date: w.weekStart,
              label: `w/c ${formatShortDate(w.weekStart)}`,
              responded: w.answered,
              expected: w.expected,
              excused: w.excused,
              rate: w.rate,
            }))}
          />
        </Card>

        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Response time">
            <DistributionTable caption="Time from being asked to answering" rows={profile.responseTime.buckets} unit="Answers" />
          </Card>
          <Card title="Vacations and out of office">
            {profile.absences.length === 0 ? (
              <EmptyState title="No absences in this period or planned" />
            ) : (
              <ul className="space-y-2 text-sm" data-testid="member-absences">
                {profile.absences.map((a) => (
                  <li key={a.id} className="flex flex-wrap items-center gap-2">
                    <Badge tone={a.kind === "vacation" ? "brand" : "amber"}>{a.kind === "vacation" ? "Vacation" : "Out of office"}</Badge>
                    <span>
                      {formatDate(a.startDate)} – {formatDate(a.endDate)}
                    </span>
                    {a.note && <span className="text-slate-600">{a.note}</span>}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>

        <Card title="Recent reports">
          {profile.recentReports.length === 0 ? (
            <EmptyState title="No reports you can read in the last 90 days" />
          ) : (
            <div className="space-y-3">
              {profile.recentReports.map((r) => (
                <ReportCard key={r.id} report={toReportCard(r, names)} timezone={user.timezone} />
              ))}
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
