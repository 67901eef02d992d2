/** GET /v2/polls/{pollId} (spec §4.2): one of the caller's polls as `{data}`; 404 for any non-visible poll. */
import { pollIdPath } from "@/lib/api/query";
import { apiPath, readRoute } from "@/lib/api/route";
import { pollDataV2Schema } from "@/lib/api/v2/polls";
import { checkinRead } from "@/lib/api/v2/standups";
import { getCheckinWire } from "@/lib/api/v2/standups-sql";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls/{pollId}", {
  GET: readRoute(
    { tag: "Polls", id: "getPoll", summary: "Get one of the caller's polls", path: pollIdPath },
    { description: "`{data: poll}`.", schema: pollDataV2Schema },
    checkinRead("poll", getCheckinWire),
  ),
});
