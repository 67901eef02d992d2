/** GET /v2/standups/{standupId}/participation (spec §2.6, §4.2): one entry per occurrence, newest first, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { standupIdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import {
  participationCursorPosition,
  participationQuerySchema,
  serializeStandupParticipation,
  standupParticipationListV2Schema,
  toParticipationFilters,
} from "@/lib/api/v2/participation";
import { listStandupParticipation } from "@/lib/domain/participation";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/standups/{standupId}/participation", {
  GET: served(
    {
      tag: "Standups",
      id: "listStandupParticipation",
      summary: "Participation per occurrence, newest first",
      path: standupIdPath,
      query: participationQuerySchema,
      response: { description: "List envelope of standup participation entries.", schema: standupParticipationListV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    async ({ actor, id, query }) => {
      const { filters, binding } = toParticipationFilters(query, "v2.standups.participation", id);
      const entries = await listStandupParticipation(actor, id, filters);
      return json(listEnvelope(pageOf(entries, filters.limit), serializeStandupParticipation, participationCursorPosition, binding));
    },
  ),
});
