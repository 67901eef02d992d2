/**
 * /v2/reports (spec §4.2): GET lists submitted reports of active standups visible to the caller
 * (list envelope); POST submits the caller's report to one of their active standups and
 * broadcasts it — 200 `{data: report}`, `Idempotency-Key` accepted.
 */
import { apiWriteRoute } from "@/lib/api/handler";
import { parseWith } from "@/lib/api/query";
import { apiPath, listRoute } from "@/lib/api/route";
import { reportCreateBodySchema, toSubmitReportInput } from "@/lib/api/v2/report-writes";
import {
  reportCursorPosition,
  reportDataV2Schema,
  reportListQuerySchema,
  reportListV2Schema,
  serializeReportV2,
  toReportListFilters,
} from "@/lib/api/v2/reports";
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { type SubmitReportInput, submitReport } from "@/lib/domain/report-writes";
import { listReportWires } from "@/lib/domain/reports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/reports", {
  GET: listRoute(
    {
      tag: "Reports",
      id: "listReports",
      summary: "List submitted reports of active standups the caller can see",
      description: "The window [since, until) defaults to the last 7 days and cannot exceed 90 days.",
    },
    { description: "List envelope of reports.", schema: reportListV2Schema },
    {
      query: reportListQuerySchema,
      filters: (query) => toReportListFilters(query),
      load: ({ actor, filters }) => listReportWires(actor, filters),
      wire: (row) => row.json,
      position: (row, filters) => reportCursorPosition(filters)(row),
    },
  ),
  POST: {
    doc: {
      tag: "Reports",
      id: "submitReport",
      summary: "Submit a report to one of the caller's active standups",
      description:
        'Every required standup question must be answered in one call (an `optional` question may be left out or answered ""). ' +
        "The report is broadcast to the standup's channel. " +
        "It completes the caller's oldest open run (a late answer), else today's run; on a day the standup does not run it is an ad-hoc report " +
        "(no run, in no participation figure). A second submission for a run the caller already answered edits that report: the same id comes back " +
        "and its broadcast is updated (marked edited), never a second report. An answer to a multiple-choice question must be one of its choices " +
        "unless the question lets people add their own; a `rating` answer a whole number on its scale (or its label), a `number` answer a " +
        "decimal number, a `multi_select` answer one or more of its choices separated by newlines (400 INVALID_PARAMETER naming the question). " +
        'Answers are stored and read back as plain text in canonical form: the rating\'s number ("4"), the number as written by JSON ' +
        '("3.5"), the picked choices in choice order joined by "\\n" — so exports and CSV carry them unchanged.',
      body: { schema: reportCreateBodySchema },
      response: { description: "`{data: report}`.", schema: reportDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
    },
    handler: apiWriteRoute({
      route: "/v2/reports",
      body: "json",
      parse: ({ body }) => toSubmitReportInput(parseWith(reportCreateBodySchema, body)),
      run: ({ actor, input, tx }) => submitted(actor, input, tx),
      // Without a key, submitReport opens a transaction only when its write is more than one statement.
      runUnkeyed: ({ actor, input }) => submitted(actor, input),
    }),
  },
});

/** Submits (in `tx` when given) and answers `{data: report}` as GET /v2/reports/{id} reads it. */
async function submitted(actor: Actor, input: SubmitReportInput, tx?: Tx) {
  const { view } = await submitReport(actor, input, tx);
  return { status: 200, body: { data: serializeReportV2(view) } };
}
