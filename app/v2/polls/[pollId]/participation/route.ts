/** GET /v2/polls/{pollId}/participation (spec §2.6, §4.2): one entry per broadcast, newest first, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { pollIdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import {
  participationCursorPosition,
  participationQuerySchema,
  pollParticipationListV2Schema,
  serializePollParticipation,
  toParticipationFilters,
} from "@/lib/api/v2/participation";
import { listPollParticipation } from "@/lib/domain/participation";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls/{pollId}/participation", {
  GET: served(
    {
      tag: "Polls",
      id: "listPollParticipation",
      summary: "Participation per broadcast, newest first",
      path: pollIdPath,
      query: participationQuerySchema,
      response: { description: "List envelope of poll participation entries.", schema: pollParticipationListV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    async ({ actor, id, query }) => {
      const { filters, binding } = toParticipationFilters(query, "v2.polls.participation", id);
      const entries = await listPollParticipation(actor, id, filters);
      return json(listEnvelope(pageOf(entries, filters.limit), serializePollParticipation, participationCursorPosition, binding));
    },
  ),
});
