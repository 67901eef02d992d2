/** GET /v2/polls/{pollId}/participation (spec §2.6, §4.2): one entry per broadcast, newest first, list envelope. */
import { pollIdPath } from "@/lib/api/query";
import { apiPath, listRoute } from "@/lib/api/route";
import { participationList, pollParticipationListV2Schema } from "@/lib/api/v2/participation";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls/{pollId}/participation", {
  GET: listRoute(
    { tag: "Polls", id: "listPollParticipation", summary: "Participation per broadcast, newest first", path: pollIdPath },
    { description: "List envelope of poll participation entries.", schema: pollParticipationListV2Schema },
    participationList("poll"),
  ),
});
