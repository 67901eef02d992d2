/**
 * GET /exports/reports.csv — reports as CSV (dashboard session or API key). Filters as
 * GET /v2/reports: since, until, standup_id, user_id; plus q (full-text search) and format
 * (answers: one row per answer, default; reports: one row per report, one column per question).
 */
import { csvResponse, csvRoute } from "@/lib/api/csv";
import { parseReportExportQuery } from "@/lib/api/export-queries";
import { exportReports } from "@/lib/domain/exports";

export const dynamic = "force-dynamic";

export const GET = csvRoute(async ({ url, actor }) => {
  const { filters, format } = parseReportExportQuery(url);
  const exp = await exportReports(actor, filters, format);
  return csvResponse(`reports-${filters.since.toISOString().slice(0, 10)}-to-${filters.until.toISOString().slice(0, 10)}.csv`, exp);
});
