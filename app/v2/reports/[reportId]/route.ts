/**
 * /v2/reports/{reportId} (spec §4.2): GET one readable report as `{data}` (404 otherwise); PATCH
 * (the author replaces some answers; the broadcast message is updated) and DELETE (the author
 * discards it; the message is removed). Not the author, missing, pending or discarded: 404.
 * Both writes accept `Idempotency-Key`.
 */

import { dataEnvelopeText, successV2Schema } from "@/lib/api/envelope";
import { jsonText } from "@/lib/api/errors";
import { apiWriteRoute } from "@/lib/api/handler";
import { parseId, parseWith, reportIdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { reportUpdateBodySchema, toUpdateAnswers } from "@/lib/api/v2/report-writes";
import { getReportWire, reportDataV2Schema, serializeReportV2 } from "@/lib/api/v2/reports";
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { discardReport, type UpdateReportInput, updateReportAnswers } from "@/lib/domain/report-writes";

type Params = { reportId: string };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/reports/{reportId}", {
  GET: served(
    {
      tag: "Reports",
      id: "getReport",
      summary: "Get one readable report",
      path: reportIdPath,
      response: { description: "`{data: report}`.", schema: reportDataV2Schema },
      errors: { 404: true },
    },
    async ({ actor, id }) => {
      return jsonText(dataEnvelopeText(await getReportWire(actor, id)));
    },
  ),
  PATCH: {
    doc: {
      tag: "Reports",
      id: "updateReport",
      summary: "Replace some answers of a report the caller authored",
      description: "If the report was broadcast, the broadcast message is updated.",
      path: reportIdPath,
      body: { schema: reportUpdateBodySchema },
      response: { description: "`{data: report}`.", schema: reportDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
    },
    handler: apiWriteRoute<Params, { reportId: number; answers: ReturnType<typeof toUpdateAnswers> }>({
      route: "/v2/reports/{reportId}",
      body: "json",
      parse: ({ params, body }) => ({
        reportId: parseId(params.reportId, "Report"),
        answers: toUpdateAnswers(parseWith(reportUpdateBodySchema, body)),
      }),
      run: ({ actor, input, tx }) => edited(actor, input, tx),
      // Without a key the edit first runs optimistically, without a transaction (lib/domain/report-edit.ts).
      runUnkeyed: ({ actor, input }) => edited(actor, input),
    }),
  },
  DELETE: {
    doc: {
      tag: "Reports",
      id: "deleteReport",
      summary: "Discard a report the caller authored",
      description: "Removes the broadcast message if one was posted.",
      path: reportIdPath,
      response: { description: "`{success: true}`.", schema: successV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
    },
    handler: apiWriteRoute<Params, { reportId: number }>({
      route: "/v2/reports/{reportId}",
      body: "none",
      parse: ({ params }) => ({ reportId: parseId(params.reportId, "Report") }),
      run: async ({ actor, input, tx }) => {
        await discardReport(actor, input, tx);
        return { status: 200, body: { success: true } };
      },
    }),
  },
});

/** Edits (in `tx` when given) and answers `{data: report}` as GET /v2/reports/{id} reads it. */
async function edited(actor: Actor, input: UpdateReportInput, tx?: Tx) {
  const { view } = await updateReportAnswers(actor, input, tx);
  return { status: 200, body: { data: serializeReportV2(view) } };
}
