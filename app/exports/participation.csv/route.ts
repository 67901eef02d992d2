/**
 * GET /exports/participation.csv — participation as CSV (dashboard session or API key).
 * Filters: since, until (local dates YYYY-MM-DD, inclusive; default the last 30 days), standup_id,
 * per (occurrence: one row per run, default; member: one row per member and run).
 */
import { csvResponse, csvRoute } from "@/lib/api/csv";
import { parseParticipationExportQuery } from "@/lib/api/export-queries";
import { exportParticipation } from "@/lib/domain/exports";

export const dynamic = "force-dynamic";

export const GET = csvRoute(async ({ url, actor }) => {
  const { filters, per } = parseParticipationExportQuery(url, new Date().toISOString().slice(0, 10));
  const exp = await exportParticipation(actor, filters, per);
  return csvResponse(`participation-${per}-${filters.since}-to-${filters.until}.csv`, exp);
});
