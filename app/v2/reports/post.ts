/**
 * POST /v2/reports (spec §4.2): submits the caller's report to one of their active standups and
 * broadcasts it; 200 `{data: report}`. Accepts `Idempotency-Key`.
 */
import { apiWriteRoute } from "@/lib/api/handler";
import { parseWith } from "@/lib/api/query";
import { reportCreateBodySchema, toSubmitReportInput } from "@/lib/api/v2/report-writes";
import { serializeReportV2 } from "@/lib/api/v2/reports";
import { loadReportView, submitReport } from "@/lib/domain/report-writes";

export const POST = apiWriteRoute({
  route: "/v2/reports",
  body: "json",
  parse: ({ body }) => toSubmitReportInput(parseWith(reportCreateBodySchema, body)),
  run: async ({ actor, input, tx }) => {
    const { reportId } = await submitReport(actor, input, tx);
    return { status: 200, body: { data: serializeReportV2(await loadReportView(reportId, tx)) } };
  },
});
