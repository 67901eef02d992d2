/** GET /v2/standups/{standupId} (spec §4.2): one visible standup as `{data}`; 404 otherwise. */
import { json } from "@/lib/api/errors";
import { standupIdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { checkinReadQuerySchema, serializeCheckinV2, standupDataV2Schema } from "@/lib/api/v2/standups";
import { getStandup } from "@/lib/domain/standups";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/standups/{standupId}", {
  GET: served(
    {
      tag: "Standups",
      id: "getStandup",
      summary: "Get one visible standup",
      path: standupIdPath,
      query: checkinReadQuerySchema,
      response: { description: "`{data: standup}`.", schema: standupDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    async ({ actor, id, query: { include } }) => {
      const row = await getStandup(actor, id, { withQuestions: include.has("questions") });
      return json({ data: serializeCheckinV2(row, include) });
    },
  ),
});
