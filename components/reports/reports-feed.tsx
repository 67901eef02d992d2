"use client";

import { QueryClient, QueryClientProvider, useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ReportFilters, ReportsPage } from "@/components/reports/fetch-reports";
import { ReportCard } from "@/components/reports/report-card";
import { Button } from "@/components/ui/button";
import { Alert, EmptyState } from "@/components/ui/card";

type Loader = (filters: ReportFilters, cursor: string | null) => Promise<ReportsPage>;

function Feed({ filters, initial, load, timezone }: { filters: ReportFilters; initial: ReportsPage; load: Loader; timezone: string }) {
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
  const error = pages.find((p) => p.error)?.error;
  if (error) return <Alert>{error}</Alert>;
  if (items.length === 0) return <EmptyState title="No reports match these filters">Try a wider date range or another standup.</EmptyState>;
  return (
    <div className="space-y-3">
      <ul className="space-y-3" aria-label="Reports">
        {items.map((r) => (
          <li key={r.id}>
            <ReportCard report={r} timezone={timezone} headingLevel={2} />
          </li>
        ))}
      </ul>
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

/** Cursor-paged reports feed ("Load more") backed by @tanstack/react-query and a server action. */
export function ReportsFeed(props: { filters: ReportFilters; initial: ReportsPage; load: Loader; timezone: string }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <Feed {...props} />
    </QueryClientProvider>
  );
}
