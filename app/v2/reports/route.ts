/** GET /v2/reports (spec §4.2): submitted reports of active standups visible to the caller, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import { reportCursorPosition, reportListQuerySchema, serializeReportV2, toReportListFilters } from "@/lib/api/v2/reports";
import { listReports } from "@/lib/domain/reports";

export const GET = apiRoute("v2", async ({ url, actor }) => {
  const query = parseWith(reportListQuerySchema, queryObject(url));
  const { filters, binding } = toReportListFilters(query);
  const rows = await listReports(actor, filters);
  return json(listEnvelope(pageOf(rows, filters.limit), serializeReportV2, reportCursorPosition(filters), binding));
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET", "POST"]);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;

export { POST } from "./post";
