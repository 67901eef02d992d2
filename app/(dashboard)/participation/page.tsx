import type { Metadata } from "next";
import { ChoiceTrendChart } from "@/components/charts/choice-trend-chart";
import { DistributionTable } from "@/components/charts/distribution-table";
import { ParticipationBarChart } from "@/components/charts/participation-chart";
import { formatShortDate } from "@/components/format";
import { ParticipationTable } from "@/components/participation/participation-table";
import { weekChartPoints } from "@/components/participation/week-points";
import { buttonClass } from "@/components/ui/button";
import { Alert, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { FilterLinks } from "@/components/ui/filter-links";
import { InputField, SelectField } from "@/components/ui/form";
import { DataTable, Td } from "@/components/ui/table";
import { addDaysIso } from "@/lib/domain/dashboard";
import { DomainError } from "@/lib/domain/errors";
import { listDashboardStandups } from "@/lib/domain/member-participation";
import { getParticipationReport, type ParticipationReport } from "@/lib/domain/participation-report";
import { localDateOf } from "@/lib/domain/schedule";
import { requireUser } from "../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Participation" };

const RANGES = [7, 30, 90] as const;
type Search = Promise<{ days?: string; since?: string; until?: string; standup?: string }>;

/**
 * Participation per standup, per member (with streaks) and per week over 7/30/90 days or a custom
 * range; response times; multiple-choice trends. Every chart has a table; filters are in the URL.
 */
export default async function ParticipationPage({ searchParams }: { searchParams: Search }) {
  const user = await requireUser();
  const sp = await searchParams;
  const today = localDateOf(new Date(), user.timezone);
  const custom = Boolean(sp.since || sp.until);
  const days = RANGES.find((d) => String(d) === sp.days) ?? 30;
  const since = custom ? (sp.since ?? addDaysIso(today, -29)) : addDaysIso(today, -(days - 1));
  const until = custom ? (sp.until ?? today) : today;
  const standupId = sp.standup && /^\d+$/.test(sp.standup) ? Number(sp.standup) : undefined;
  const standups = await listDashboardStandups(user);
  let report: ParticipationReport | null = null;
  let error: string | null = null;
  try {
    report = await getParticipationReport(user, { since, until, standupId, today });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    error = err.message;
  }
  const query = (patch: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    const merged = { standup: sp.standup, ...patch };
    for (const [k, v] of Object.entries(merged)) if (v) params.set(k, v);
    return `/participation?${params}`;
  };
  const exportQuery = new URLSearchParams({ since, until, ...(standupId ? { standup_id: String(standupId) } : {}) });
  return (
    <>
      <PageHeader
        title="Participation"
        description={`${since} to ${until}`}
        actions={
          <>
            <a className={buttonClass("secondary")} href={`/exports/participation.csv?${exportQuery}`}>
              Export per occurrence (CSV)
            </a>
            <a className={buttonClass("secondary")} href={`/exports/participation.csv?${exportQuery}&per=member`}>
              Export per member (CSV)
            </a>
          </>
        }
      />
      <Card className="mb-6">
        <div className="space-y-4 text-sm">
          <FilterLinks
            label="Period"
            options={RANGES.map((d) => ({ href: query({ days: String(d) }), label: `${d} days`, active: !custom && d === days }))}
          />
          <form method="get" action="/participation" className="flex flex-wrap items-end gap-3">
            <SelectField
              id="standup"
              name="standup"
              label="Standup"
              options={[{ value: "", label: "All standups" }, ...standups.map((s) => ({ value: String(s.id), label: s.name }))]}
              defaultValue={sp.standup ?? ""}
            />
            <InputField id="since" label="From" name="since" type="date" defaultValue={since} />
            <InputField id="until" label="To" name="until" type="date" defaultValue={until} />
            <button type="submit" className={buttonClass("primary")}>
              Show
            </button>
          </form>
        </div>
      </Card>
      {error && <Alert>{error}</Alert>}
      {report && <ReportBody report={report} />}
    </>
  );
}

function ReportBody({ report }: { report: ParticipationReport }) {
  if (report.standups.length === 0) return <EmptyState title="Nothing ran in this period" />;
  return (
    <div className="space-y-6">
      <Card title="By week">
        <ParticipationBarChart
          title="Participation per week (weeks where nothing ran are left empty)"
          points={weekChartPoints(report.weeks)}
        />
      </Card>
      <Card title="Per standup">
        <ParticipationTable
          caption="Participation per standup"
          nameLabel="Standup"
          testId="participation-standups"
          extraColumns={["Runs"]}
          rows={report.standups.map((s) => ({ ...s, key: s.standupId, href: `/standups/${s.standupId}`, extra: [s.occurrences] }))}
        />
      </Card>
      <Card title="Per member" empty={report.members.length === 0 && "Only anonymous standups in this selection"}>
        <ParticipationTable
          caption="Participation per member, lowest first (anonymous standups left out)"
          nameLabel="Member"
          testId="participation-members"
          wrapperClassName="max-h-[32rem] overflow-auto"
          extraColumns={["Current streak"]}
          rows={report.members.map((m) => ({ ...m, key: m.chatId, name: m.realname, href: `/members/${m.chatId}`, extra: [m.streak] }))}
        />
      </Card>
      <Card title="Response time (asked → answered)">
        <DistributionTable caption="Time from being asked to answering" rows={report.responseTime.buckets} unit="Answers" />
      </Card>
      {report.choiceTrends.map((t) => (
        <Card key={t.questionId} title={`${t.question} (${t.standupName})`}>
          <ChoiceTrendChart
            title={`${t.answerType === "rating" ? "Distribution of ratings" : t.answerType === "multi_select" ? "Share of each picked choice" : "Share of each answer"} to “${t.question}” per week`}
            answerType={t.answerType}
            choices={t.choices}
            weeks={t.weeks.map((w) => ({ label: `w/c ${formatShortDate(w.weekStart)}`, counts: w.counts, total: w.total }))}
          />
          <DataTable
            caption={`Answers to “${t.question}” per week`}
            columns={[
              "Week",
              ...t.choices,
              ...(t.answerType === "rating" ? ["Average"] : []),
              t.answerType === "multi_select" ? "Picks" : "Answers",
            ]}
            density="compact"
            className="min-w-[30rem] text-sm"
            wrapperClassName="overflow-x-auto"
            testId="choice-trend"
          >
            {t.weeks.map((w) => (
              <tr key={w.weekStart} className="border-t border-slate-100">
                <Td density="compact" className="whitespace-nowrap">
                  w/c {formatShortDate(w.weekStart)}
                </Td>
                {t.choices.map((c) => (
                  <Td key={c} density="compact">
                    {w.total ? `${w.counts[c] ?? 0} (${Math.round(((w.counts[c] ?? 0) / w.total) * 100)}%)` : "—"}
                  </Td>
                ))}
                {t.answerType === "rating" && <Td density="compact">{w.average ?? "—"}</Td>}
                <Td density="compact" last>
                  {w.total}
                </Td>
              </tr>
            ))}
          </DataTable>
        </Card>
      ))}
    </div>
  );
}
