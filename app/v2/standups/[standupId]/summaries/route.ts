/** GET /v2/standups/{standupId}/summaries (issue 15, v2 extension): occurrence summaries, newest first, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import { serializeSummaryV2, summaryCursorPosition, summaryListQuerySchema, toSummaryListFilters } from "@/lib/api/v2/summaries";
import { listStandupSummaries } from "@/lib/domain/summaries";

export const GET = apiRoute<{ standupId: string }>("v2", async ({ url, actor, params }) => {
  const id = parseId(params.standupId, "Standup");
  const { filters, binding } = toSummaryListFilters(parseWith(summaryListQuerySchema, queryObject(url)), id);
  const rows = await listStandupSummaries(actor, id, filters);
  return json(listEnvelope(pageOf(rows, filters.limit), serializeSummaryV2, summaryCursorPosition, binding));
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
