import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DistributionTable } from "@/components/charts/distribution-table";
import { ParticipationBarChart } from "@/components/charts/participation-chart";
import { formatDate, formatPercent } from "@/components/format";
import { ParticipationTable } from "@/components/participation/participation-table";
import { weekChartPoints } from "@/components/participation/week-points";
import { ErasePersonForm } from "@/components/people/erase-person-form";
import { ReportCard } from "@/components/reports/report-card";
import { toReportCard } from "@/components/reports/to-card";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { StatCard } from "@/components/ui/stat-card";
import { NotFoundError } from "@/lib/domain/errors";
import { getMemberProfile } from "@/lib/domain/member-profile";
import { requireUser } from "../../load";
import { erasePersonAction } from "../../profile/actions";

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
          <StatCard
            label="Participation, last 90 days"
            value={formatPercent(profile.overall.rate)}
            testId="member-rate"
            sub={`${profile.overall.answered} of ${profile.overall.expected} answered · ${profile.overall.excused} excused`}
          />
          <StatCard
            label="Best current streak"
            value={Math.max(0, ...profile.standups.map((s) => s.streak))}
            sub="answers in a row (excused days skipped)"
          />
          <StatCard label="Median response time" value={formatMinutes(profile.responseTime.median)} sub="from being asked to answering" />
        </div>

        <Card title="Per standup" empty={profile.standups.length === 0 && "Not asked in any standup you can see in the last 90 days"}>
          <ParticipationTable
            caption="Participation per standup over the last 90 days"
            nameLabel="Standup"
            testId="member-standups"
            extraColumns={["Streak", "Longest"]}
            rows={profile.standups.map((s) => ({
              ...s,
              key: s.standupId,
              href: `/standups/${s.standupId}`,
              extra: [s.streak, s.longestStreak],
            }))}
          />
        </Card>

        <Card title="Participation by week">
          <ParticipationBarChart title={`Weekly participation of ${profile.user.realname}`} points={weekChartPoints(profile.weeks)} />
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
        {user.isAdmin && profile.user.id !== user.userId && (
          <Card title="Erase this person's data">
            <ErasePersonForm action={erasePersonAction} userId={profile.user.id} self={false} />
          </Card>
        )}
      </div>
    </>
  );
}
