/** GET /v2/polls/{pollId} (spec §4.2): one of the caller's polls as `{data}`; 404 for any non-visible poll. */
import { json } from "@/lib/api/errors";
import { pollIdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { pollDataV2Schema, serializePollV2 } from "@/lib/api/v2/polls";
import { checkinReadQuerySchema } from "@/lib/api/v2/standups";
import { getPoll } from "@/lib/domain/polls";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls/{pollId}", {
  GET: served(
    {
      tag: "Polls",
      id: "getPoll",
      summary: "Get one of the caller's polls",
      path: pollIdPath,
      query: checkinReadQuerySchema,
      response: { description: "`{data: poll}`.", schema: pollDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    async ({ actor, id, query: { include } }) => {
      const row = await getPoll(actor, id, { withQuestions: include.has("questions") });
      return json({ data: serializePollV2(row, include) });
    },
  ),
});
