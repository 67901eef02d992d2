import type { Metadata } from "next";
import { reportRangeError } from "@/components/people-messages";
import { fetchReportsPage, type ReportFilters } from "@/components/reports/fetch-reports";
import { ReportsFeed } from "@/components/reports/reports-feed";
import { buttonClass, LinkButton } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { InputField, SelectField } from "@/components/ui/form";
import { listTeamMembers } from "@/lib/domain/absences";
import { listStandupSettings } from "@/lib/domain/standups";
import { requireUser } from "../load";
import { deleteReportAction, loadReportsAction, restoreReportAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Reports" };

type Search = { standup?: string; member?: string; from?: string; to?: string; q?: string };

/** Reports feed: filters (standup, member, date range) in the URL, cursor "load more". */
export default async function ReportsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const filters: ReportFilters = {
    standup: sp.standup || undefined,
    member: sp.member || undefined,
    from: sp.from || undefined,
    to: sp.to || undefined,
    q: sp.q?.trim() || undefined,
  };
  const exportQuery = new URLSearchParams();
  if (filters.standup) exportQuery.set("standup_id", filters.standup);
  if (filters.member) exportQuery.set("user_id", filters.member);
  if (filters.from) exportQuery.set("since", filters.from);
  exportQuery.set(
    "until",
    filters.to ? new Date(new Date(`${filters.to}T00:00:00Z`).getTime() + 86_400_000).toISOString() : new Date().toISOString(),
  );
  if (!filters.from) exportQuery.set("since", new Date(Date.now() - 30 * 86_400_000).toISOString());
  if (filters.q) exportQuery.set("q", filters.q);
  const [first, standups, members] = await Promise.all([
    fetchReportsPage(user, filters, null),
    listStandupSettings(user, { drafts: true, teamWide: "readers" }),
    listTeamMembers(user),
  ]);
  return (
    <>
      <PageHeader
        title="Reports"
        description="Submitted reports of active standups you can see, grouped by run. Anonymous reports never show a name."
        actions={
          <>
            <a className={buttonClass("secondary")} href={`/exports/reports.csv?${exportQuery}`}>
              Export answers (CSV)
            </a>
            <a className={buttonClass("secondary")} href={`/exports/reports.csv?${exportQuery}&format=reports`}>
              Export reports (CSV)
            </a>
          </>
        }
      />
      <Card className="mb-6">
        <form method="get" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end" aria-label="Filter reports">
          <InputField
            id="f-q"
            label="Search answers"
            name="q"
            type="search"
            defaultValue={filters.q ?? ""}
            placeholder="e.g. staging"
            maxLength={200}
          />
          <SelectField
            id="f-standup"
            name="standup"
            label="Standup"
            options={[
              { value: "", label: "All standups" },
              ...standups.filter((s) => s.state !== "draft").map((s) => ({ value: String(s.id), label: s.name })),
            ]}
            defaultValue={filters.standup ?? ""}
          />
          <SelectField
            id="f-member"
            name="member"
            label="Member"
            options={[{ value: "", label: "Everyone" }, ...members.map((m) => ({ value: m.chatId, label: m.realname }))]}
            defaultValue={filters.member ?? ""}
          />
          <InputField id="f-from" label="From" name="from" type="date" defaultValue={filters.from ?? ""} />
          <InputField
            id="f-to"
            label="To"
            name="to"
            type="date"
            defaultValue={filters.to ?? ""}
            error={reportRangeError(filters.from, filters.to) ?? undefined}
          />
          <div className="flex gap-2">
            <button type="submit" className={buttonClass("primary")}>
              Apply
            </button>
            <LinkButton href="/reports" variant="secondary">
              Reset
            </LinkButton>
          </div>
        </form>
      </Card>
      <ReportsFeed
        key={JSON.stringify(filters)}
        filters={filters}
        initial={first}
        load={loadReportsAction}
        reportActions={{ remove: deleteReportAction, restore: restoreReportAction }}
        timezone={user.timezone}
      />
    </>
  );
}
