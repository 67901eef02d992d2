/** GET /v2/standups/{standupId}/summaries (issue 15, v2 extension): occurrence summaries, newest first, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { standupIdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import {
  serializeSummaryV2,
  summaryCursorPosition,
  summaryListQuerySchema,
  summaryListV2Schema,
  toSummaryListFilters,
} from "@/lib/api/v2/summaries";
import { listStandupSummaries } from "@/lib/domain/summaries";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/standups/{standupId}/summaries", {
  GET: served(
    {
      tag: "Standups",
      id: "listStandupSummaries",
      summary: "Occurrence summaries, newest first (extension)",
      description:
        "Summary of each closed occurrence: blockers, who is blocked, recurring themes, mood (multiple-choice counts), " +
        "participation, and an overview when a language model is configured. Anonymous reports are never attributed.",
      path: standupIdPath,
      query: summaryListQuerySchema,
      response: { description: "List envelope of occurrence summaries.", schema: summaryListV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    async ({ actor, id, query }) => {
      const { filters, binding } = toSummaryListFilters(query, id);
      const rows = await listStandupSummaries(actor, id, filters);
      return json(listEnvelope(pageOf(rows, filters.limit), serializeSummaryV2, summaryCursorPosition, binding));
    },
  ),
});
