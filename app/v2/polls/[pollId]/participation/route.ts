/** GET /v2/polls/{pollId}/participation (spec §2.6, §4.2): one entry per broadcast, newest first, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute } from "@/lib/api/handler";
import { parseId, parseWith, pollIdPath, queryObject } from "@/lib/api/query";
import { apiPath } from "@/lib/api/route";
import {
  participationCursorPosition,
  participationQuerySchema,
  pollParticipationListV2Schema,
  serializePollParticipation,
  toParticipationFilters,
} from "@/lib/api/v2/participation";
import { listPollParticipation } from "@/lib/domain/participation";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls/{pollId}/participation", {
  GET: {
    doc: {
      tag: "Polls",
      id: "listPollParticipation",
      summary: "Participation per broadcast, newest first",
      path: pollIdPath,
      query: participationQuerySchema,
      response: { description: "List envelope of poll participation entries.", schema: pollParticipationListV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    handler: apiRoute<{ pollId: string }>("v2", async ({ url, actor, params }) => {
      const id = parseId(params.pollId, "Poll");
      const query = parseWith(participationQuerySchema, queryObject(url));
      const { filters, binding } = toParticipationFilters(query, "v2.polls.participation", id);
      const entries = await listPollParticipation(actor, id, filters);
      return json(listEnvelope(pageOf(entries, filters.limit), serializePollParticipation, participationCursorPosition, binding));
    }),
  },
});
