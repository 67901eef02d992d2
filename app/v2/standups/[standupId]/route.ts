/** GET /v2/standups/{standupId} (spec §4.2): one visible standup as `{data}`; 404 otherwise. */
import { standupIdPath } from "@/lib/api/query";
import { apiPath, readRoute } from "@/lib/api/route";
import { checkinRead, standupDataV2Schema } from "@/lib/api/v2/standups";
import { getCheckinWire } from "@/lib/api/v2/standups-sql";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/standups/{standupId}", {
  GET: readRoute(
    { tag: "Standups", id: "getStandup", summary: "Get one visible standup", path: standupIdPath },
    { description: "`{data: standup}`.", schema: standupDataV2Schema },
    checkinRead("standup", getCheckinWire),
  ),
});
