/**
 * GET /v2/polls/{pollId}/votes (spec §2.5, §4.2): results of the latest broadcast, or of every broadcast in [since, until).
 * POST /v2/polls/{pollId}/votes (v2 extension, issue 10): a recipient of the current broadcast votes; Idempotency-Key accepted.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, apiWriteRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import { serializeVoteV2, toCastVoteInput, voteCreateBodySchema } from "@/lib/api/v2/vote-writes";
import { serializePollResultsV2, votesQuerySchema } from "@/lib/api/v2/votes";
import { castVote } from "@/lib/domain/vote-writes";
import { getPollVotes } from "@/lib/domain/votes";

export const GET = apiRoute<{ pollId: string }>("v2", async ({ url, actor, params }) => {
  const id = parseId(params.pollId, "Poll");
  const query = parseWith(votesQuerySchema, queryObject(url));
  const results = await getPollVotes(actor, id, { since: query.since, until: query.until });
  return json({ data: serializePollResultsV2(results) });
});

export const POST = apiWriteRoute<{ pollId: string }, ReturnType<typeof toCastVoteInput>>({
  route: "/v2/polls/{pollId}/votes",
  body: "json",
  parse: ({ params, body }) => toCastVoteInput(parseId(params.pollId, "Poll"), parseWith(voteCreateBodySchema, body)),
  run: async ({ actor, input, tx }) => ({ status: 200, body: { data: serializeVoteV2(await castVote(actor, input, tx)) } }),
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET", "POST"]);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
