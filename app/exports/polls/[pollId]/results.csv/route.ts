/**
 * GET /exports/polls/{pollId}/results.csv — poll results as CSV (the poll's creator; dashboard
 * session or API key). Filters as GET /v2/polls/{id}/votes: since, until (neither: latest broadcast).
 */
import { csvResponse, csvRoute } from "@/lib/api/csv";
import { parsePollExportQuery } from "@/lib/api/export-queries";
import { parseId } from "@/lib/api/query";
import { exportPollResults } from "@/lib/domain/exports";

export const dynamic = "force-dynamic";

export const GET = csvRoute<{ pollId: string }>(async ({ url, actor, params }) => {
  const pollId = parseId(params.pollId, "Poll");
  const exp = await exportPollResults(actor, pollId, parsePollExportQuery(url));
  return csvResponse(`poll-${pollId}-results.csv`, exp);
});
