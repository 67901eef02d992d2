/**
 * GET /v1/reports/ (spec §4.3): submitted reports the caller can see, newest first, as a bare
 * array of v1 report list items (limit default 30, max 100; standup_id, user_id / user_ids,
 * after / before in Unix seconds, question_ids, html=true for sanitized HTML answers).
 * POST /v1/reports/: submits the caller's report (answers keyed by question id) and answers the
 * create form of spec §2.8; the report is broadcast like one from POST /v2/reports.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { readJson } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { serializeReportCreatedV1, serializeReportListItemV1 } from "@/lib/api/v1/reports";
import { parseV1ReportCreateBody, parseV1ReportListQuery } from "@/lib/api/v1/requests";
import { transaction } from "@/lib/db";
import { submitReport } from "@/lib/domain/report-writes";
import { getOwnReport, searchReports } from "@/lib/domain/reports";

export const GET = apiRoute("v1", async ({ url, actor }) => {
  const { html, ...filters } = parseV1ReportListQuery(url);
  const rows = await searchReports(actor, filters);
  return json(rows.map((row) => serializeReportListItemV1(row, { html })));
});

export const POST = apiRoute("v1", async ({ request, actor }) => {
  const body = parseV1ReportCreateBody(await readJson(request));
  // v1 rules: the standup's creator may submit without being a member; any subset of the questions.
  const row = await transaction(async (tx) => {
    const { reportId } = await submitReport(actor, { ...body, allowOwner: true, requireAllQuestions: false }, tx);
    return getOwnReport(actor, reportId, tx);
  });
  return json(serializeReportCreatedV1(row));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
