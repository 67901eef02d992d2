/** GET /v2/polls/{pollId}/votes (spec §2.5, §4.2): results of the latest broadcast, or of every broadcast in [since, until). */
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import { serializePollResultsV2, votesQuerySchema } from "@/lib/api/v2/votes";
import { getPollVotes } from "@/lib/domain/votes";

export const GET = apiRoute<{ pollId: string }>("v2", async ({ url, actor, params }) => {
  const id = parseId(params.pollId, "Poll");
  const query = parseWith(votesQuerySchema, queryObject(url));
  const results = await getPollVotes(actor, id, { since: query.since, until: query.until });
  return json({ data: serializePollResultsV2(results) });
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
