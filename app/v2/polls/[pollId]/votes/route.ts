/**
 * GET /v2/polls/{pollId}/votes (spec §2.5, §4.2): results of the latest broadcast, or of every broadcast in [since, until),
 * sent as the JSON text PostgreSQL builds (lib/api/v2/votes.ts `pollVotesWire`; the same bytes as serializePollResultsV2).
 * POST /v2/polls/{pollId}/votes (v2 extension, issue 10): a recipient of the current broadcast votes; Idempotency-Key accepted.
 */
import { dataEnvelopeText } from "@/lib/api/envelope";
import { apiWriteRoute } from "@/lib/api/handler";
import { parseId, parseWith, pollIdPath } from "@/lib/api/query";
import { apiPath, readRoute } from "@/lib/api/route";
import { serializeVoteV2, toCastVoteInput, voteCreateBodySchema, voteDataV2Schema } from "@/lib/api/v2/vote-writes";
import { pollResultsDataV2Schema, pollVotesWire, votesQuerySchema } from "@/lib/api/v2/votes";
import { castVote } from "@/lib/domain/vote-writes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls/{pollId}/votes", {
  GET: readRoute(
    {
      tag: "Polls",
      id: "getPollVotes",
      summary: "Poll results of the latest broadcast, or of every broadcast in a range",
      path: pollIdPath,
    },
    { description: "`{data: poll results}`.", schema: pollResultsDataV2Schema },
    {
      query: votesQuerySchema,
      load: ({ actor, id, query: { since, until } }) => pollVotesWire(actor, id, { since, until }),
      wire: dataEnvelopeText,
    },
  ),
  POST: {
    doc: {
      tag: "Polls",
      id: "castVote",
      summary: "Vote on the current broadcast of a poll (v2 extension)",
      description:
        "For recipients of the poll's current broadcast (404 for anyone else). `choices` name options by their text; " +
        "`text` answers open-ended questions. Voting again while the poll is open replaces the vote on the questions named.",
      path: pollIdPath,
      body: { schema: voteCreateBodySchema },
      response: { description: "`{data: vote}`: the recorded vote.", schema: voteDataV2Schema },
      errors: {
        400: ["INVALID_PARAMETER"],
        404: true,
        409: {
          codes: ["POLL_CLOSED"],
          description: "POLL_CLOSED: the broadcast closed (or the poll is paused); IDEMPOTENCY_KEY_IN_USE: retry after `Retry-After`.",
        },
        422: {
          codes: ["UNKNOWN_CHOICE", "TOO_MANY_CHOICES"],
          description:
            "UNKNOWN_CHOICE: no such option (and the question takes no own options); TOO_MANY_CHOICES: the question allows one; " +
            "MISMATCHED_IDEMPOTENCY_BODY.",
        },
      },
    },
    handler: apiWriteRoute<{ pollId: string }, ReturnType<typeof toCastVoteInput>>({
      route: "/v2/polls/{pollId}/votes",
      body: "json",
      parse: ({ params, body }) => toCastVoteInput(parseId(params.pollId, "Poll"), parseWith(voteCreateBodySchema, body)),
      run: async ({ actor, input, tx }) => ({ status: 200, body: { data: serializeVoteV2(await castVote(actor, input, tx)) } }),
    }),
  },
});
