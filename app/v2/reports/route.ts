/** GET /v2/reports (spec §4.2): submitted reports of active standups visible to the caller, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import { reportCursorPosition, reportListQuerySchema, serializeReportV2, toReportListFilters } from "@/lib/api/v2/reports";
import { listReports } from "@/lib/domain/reports";

export const GET = apiRoute("v2", async ({ url, actor }) => {
  const query = parseWith(reportListQuerySchema, queryObject(url));
  const { filters, binding } = toReportListFilters(query);
  const rows = await listReports(actor, filters);
  return json(listEnvelope(pageOf(rows, filters.limit), serializeReportV2, reportCursorPosition(filters), binding));
});

export const OPTIONS = preflight;

export { POST } from "./post";
