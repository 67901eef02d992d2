/**
 * GET /v1/reports/ (spec §4.3): submitted reports the caller can see, newest first, as a bare
 * array of v1 report list items (limit default 30, max 100; standup_id, user_id / user_ids,
 * after / before in Unix seconds, question_ids, html=true for sanitized HTML answers).
 * POST /v1/reports/: submits the caller's report (answers keyed by question id) and answers the
 * create form of spec §2.8; the report is broadcast like one from POST /v2/reports.
 */
import { z } from "zod";
import { json, jsonText } from "@/lib/api/errors";
import { readJson } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import {
  reportCreatedV1Schema,
  reportListItemV1Schema,
  reportListV1Text,
  searchReportWiresV1,
  serializeReportCreatedV1,
  serializeReportListItemV1,
} from "@/lib/api/v1/reports";
import { parseV1ReportCreateBody, parseV1ReportListQuery, v1ReportListQuery, zReportCreate } from "@/lib/api/v1/requests";
import { transaction } from "@/lib/db";
import { submitReport } from "@/lib/domain/report-writes";
import { getOwnReport, searchReports } from "@/lib/domain/reports";

const tag = "Legacy reports (v1)";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/reports/", {
  GET: served(
    {
      tag,
      id: "listReportsV1",
      summary: "List submitted reports, newest first",
      documentedQuery: v1ReportListQuery,
      response: { description: "Array of v1 reports.", schema: z.array(reportListItemV1Schema) },
      errors: [400],
    },
    async ({ url, actor }) => {
      const { html, ...filters } = parseV1ReportListQuery(url);
      if (html) return json((await searchReports(actor, filters)).map((row) => serializeReportListItemV1(row, { html })));
      return jsonText(reportListV1Text(await searchReportWiresV1(actor, filters)));
    },
  ),
  POST: served(
    {
      tag,
      id: "submitReportV1",
      summary: "Submit the caller's report",
      description:
        "The standup must exist, be active and include the caller as participant or creator. " +
        '`answers` maps question ids to `{"text": "..."}` (or a plain string). ' +
        "A second submission for a run the caller already answered edits that report (same id, broadcast updated); " +
        "multiple-choice answers must be one of the question's choices unless it adds own options.",
      body: { schema: zReportCreate },
      response: { description: "The v1 report (create form).", schema: reportCreatedV1Schema },
      errors: [400, 404],
    },
    async ({ request, actor }) => {
      const body = parseV1ReportCreateBody(await readJson(request));
      // v1 rules: the standup's creator may submit without being a member; any subset of the questions.
      const row = await transaction(async (tx) => {
        const { reportId } = await submitReport(actor, { ...body, allowOwner: true, requireAllQuestions: false }, tx);
        return getOwnReport(actor, reportId, tx);
      });
      return json(serializeReportCreatedV1(row));
    },
  ),
});
