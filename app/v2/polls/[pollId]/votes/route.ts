/** GET /v2/polls/{pollId}/votes (spec §2.5, §4.2): results of the latest broadcast, or of every broadcast in [since, until). */
import { json } from "@/lib/api/errors";
import { pollIdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { pollResultsDataV2Schema, serializePollResultsV2, votesQuerySchema } from "@/lib/api/v2/votes";
import { getPollVotes } from "@/lib/domain/votes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls/{pollId}/votes", {
  GET: served(
    {
      tag: "Polls",
      id: "getPollVotes",
      summary: "Poll results of the latest broadcast, or of every broadcast in a range",
      path: pollIdPath,
      query: votesQuerySchema,
      response: { description: "`{data: poll results}`.", schema: pollResultsDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    async ({ actor, id, query: { since, until } }) =>
      json({ data: serializePollResultsV2(await getPollVotes(actor, id, { since, until })) }),
  ),
});
