"use client";

import { QueryClient, QueryClientProvider, useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "@/components/format";
import { DeletableReport, type ReportDeleteActions } from "@/components/reports/delete-report";
import type { ReportFilters, ReportsPage } from "@/components/reports/fetch-reports";
import { ReportCard, type ReportCardData } from "@/components/reports/report-card";
import { Button } from "@/components/ui/button";
import { Alert, EmptyState } from "@/components/ui/card";

type Loader = (filters: ReportFilters, cursor: string | null) => Promise<ReportsPage>;

type FeedProps = { filters: ReportFilters; initial: ReportsPage; load: Loader; reportActions: ReportDeleteActions; timezone: string };

function Feed({ filters, initial, load, reportActions, timezone }: FeedProps) {
  const query = useInfiniteQuery({
    queryKey: ["reports", filters],
    queryFn: ({ pageParam }) => load(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData: { pages: [initial], pageParams: [null] },
    staleTime: 30_000,
  });
  const pages = query.data?.pages ?? [initial];
  const items = pages.flatMap((p) => p.items);
  const rollCalls = Object.assign({}, ...pages.map((p) => p.rollCalls ?? {}));
  const groups = groupByOccurrence(items);
  const error = pages.find((p) => p.error)?.error;
  if (error) return <Alert>{error}</Alert>;
  if (items.length === 0) return <EmptyState title="No reports match these filters">Try a wider date range or another standup.</EmptyState>;
  return (
    <div className="space-y-3">
      <div className="space-y-6">
        {groups.map((g) => {
          const call = g.occurrenceId ? rollCalls[g.occurrenceId] : undefined;
          return (
            <section key={g.key} aria-label={`${g.standupName}, ${formatDate(g.date)}`} data-testid="report-group">
              <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="text-base font-semibold text-slate-900">
                  {g.standupName} · {formatDate(g.date)}
                </h2>
                {call && (
                  <p className="text-sm text-slate-600" data-testid="roll-call">
                    {call.answered} answered{call.excused ? ` · ${call.excused} excused` : ""}
                    {call.notAnswered === null
                      ? ""
                      : call.notAnswered.length
                        ? ` · did not answer: ${call.notAnswered.join(", ")}`
                        : " · everyone answered"}
                  </p>
                )}
              </div>
              <ul className="space-y-3">
                {g.items.map((r) => (
                  <li key={r.id}>
                    {r.own ? (
                      <DeletableReport reportId={r.id} actions={reportActions}>
                        {(actions) => <ReportCard report={r} timezone={timezone} headingLevel={3} actions={actions} />}
                      </DeletableReport>
                    ) : (
                      <ReportCard report={r} timezone={timezone} headingLevel={3} />
                    )}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
      {query.isFetchNextPageError && <Alert>More reports could not be loaded. Try again.</Alert>}
      {query.hasNextPage ? (
        <Button variant="secondary" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? "Loading…" : "Load more"}
        </Button>
      ) : (
        <p className="text-sm text-slate-600">That is all for this range.</p>
      )}
      <p role="status" aria-live="polite" className="sr-only">
        {query.isFetchingNextPage ? "Loading more reports" : `${items.length} reports shown`}
      </p>
    </div>
  );
}

/**
 * Cursor-paged reports feed ("Load more") backed by @tanstack/react-query and a server action
 * (`load`); `reportActions` delete and restore the viewer's own reports. Both come from the page.
 */
export function ReportsFeed(props: FeedProps) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <Feed {...props} />
    </QueryClientProvider>
  );
}

type Group = { key: string; occurrenceId: number | null; standupName: string; date: string; items: ReportCardData[] };

/**
 * Reports of one occurrence (standup + date) form one group, wherever they fall in the feed (the
 * reports of a run interleave with other runs' by time; anonymous runs repeated their header above
 * each report, issue 41 item 11). Groups keep the order of their first (newest) report.
 */
function groupByOccurrence(items: ReportCardData[]): Group[] {
  const groups = new Map<string, Group>();
  for (const r of items) {
    const date = r.date ?? r.postedAt.slice(0, 10);
    const key = `${r.standupId}:${date}`;
    const group = groups.get(key);
    if (group) group.items.push(r);
    else groups.set(key, { key, occurrenceId: r.occurrenceId ?? null, standupName: r.standupName, date, items: [r] });
  }
  return [...groups.values()];
}
