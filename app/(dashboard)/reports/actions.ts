"use server";

import { fetchReportsPage, type ReportFilters, type ReportsPage } from "@/components/reports/fetch-reports";
import { getActor } from "@/lib/auth/session";

/** Server action behind "Load more" (react-query infinite query). */
export async function loadReportsAction(filters: ReportFilters, cursor: string | null): Promise<ReportsPage> {
  const actor = await getActor();
  return fetchReportsPage(actor, filters, cursor);
}
