/**
 * GET /exports/polls/{pollId}/results.csv — poll results as CSV. Filters as GET /v2/polls/{id}/votes:
 * since, until (neither: latest broadcast). Who may read them (lib/domain/access.ts `canManagePoll`):
 * with an API key, the poll's creator only, the rule of GET /v2/polls/{id}/votes (spec §2.3; any
 * other poll is 404); with a dashboard session, also a team admin, who manages every poll of the
 * team in the dashboard (its live results and this download on the poll's page).
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
