/** GET /v2/standups/{standupId}/participation (spec §2.6, §4.2): one entry per occurrence, newest first, list envelope. */
import { standupIdPath } from "@/lib/api/query";
import { apiPath, listRoute } from "@/lib/api/route";
import { participationList, standupParticipationListV2Schema } from "@/lib/api/v2/participation";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/standups/{standupId}/participation", {
  GET: listRoute(
    { tag: "Standups", id: "listStandupParticipation", summary: "Participation per occurrence, newest first", path: standupIdPath },
    { description: "List envelope of standup participation entries.", schema: standupParticipationListV2Schema },
    participationList("standup"),
  ),
});
