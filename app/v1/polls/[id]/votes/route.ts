/**
 * GET /v1/polls/{id}/votes (spec §4.3): v1 poll results over the poll's instances whose date is
 * in the `from` / `to` range (ISO 8601 or YYYY-MM-DD; a YYYY-MM-DD `to` includes that day);
 * every instance when no range is given.
 */
import { json } from "@/lib/api/errors";
import { v1IdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { pollResultsV1Schema, serializePollResultsV1 } from "@/lib/api/v1/polls";
import { parseV1PollVotesQuery, v1PollVotesQuery } from "@/lib/api/v1/requests";
import { getPollResultsWithVoters } from "@/lib/domain/votes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/polls/{id}/votes", {
  GET: served(
    {
      tag: "Legacy polls (v1)",
      id: "getPollVotesV1",
      summary: "Poll results over a date range",
      path: v1IdPath("Poll"),
      documentedQuery: v1PollVotesQuery,
      response: { description: "v1 poll results.", schema: pollResultsV1Schema },
      errors: [400, 404],
    },
    async ({ url, actor, id }) => {
      const results = await getPollResultsWithVoters(actor, id, parseV1PollVotesQuery(url));
      return json(serializePollResultsV1(results));
    },
  ),
});
