/**
 * PATCH and DELETE /v2/reports/{reportId} (spec §4.2): the author edits some answers (the
 * broadcast message is updated) or discards the report (the message is removed). Not the author,
 * missing, pending or discarded: 404. Both accept `Idempotency-Key`.
 */
import { apiWriteRoute } from "@/lib/api/handler";
import { parseId, parseWith } from "@/lib/api/query";
import { reportUpdateBodySchema, toUpdateAnswers } from "@/lib/api/v2/report-writes";
import { serializeReportV2 } from "@/lib/api/v2/reports";
import { discardReport, loadReportView, updateReportAnswers } from "@/lib/domain/report-writes";

type Params = { reportId: string };

export const PATCH = apiWriteRoute<Params, { reportId: number; answers: ReturnType<typeof toUpdateAnswers> }>({
  route: "/v2/reports/{reportId}",
  body: "json",
  parse: ({ params, body }) => ({
    reportId: parseId(params.reportId, "Report"),
    answers: toUpdateAnswers(parseWith(reportUpdateBodySchema, body)),
  }),
  run: async ({ actor, input, tx }) => {
    const { reportId } = await updateReportAnswers(actor, input, tx);
    return { status: 200, body: { data: serializeReportV2(await loadReportView(reportId, tx)) } };
  },
});

export const DELETE = apiWriteRoute<Params, { reportId: number }>({
  route: "/v2/reports/{reportId}",
  body: "none",
  parse: ({ params }) => ({ reportId: parseId(params.reportId, "Report") }),
  run: async ({ actor, input, tx }) => {
    await discardReport(actor, input, tx);
    return { status: 200, body: { success: true } };
  },
});
