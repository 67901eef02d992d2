/**
 * GET /v1/polls/{id}/votes (spec §4.3): v1 poll results over the poll's instances whose date is
 * in the `from` / `to` range (ISO 8601 or YYYY-MM-DD; a YYYY-MM-DD `to` includes that day);
 * every instance when no range is given.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseId } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { serializePollResultsV1 } from "@/lib/api/v1/polls";
import { parseV1PollVotesQuery } from "@/lib/api/v1/requests";
import { getPollResultsWithVoters } from "@/lib/domain/votes";

export const GET = apiRoute<{ id: string }>("v1", async ({ url, actor, params }) => {
  const id = parseId(params.id, "Poll");
  const results = await getPollResultsWithVoters(actor, id, parseV1PollVotesQuery(url));
  return json(serializePollResultsV1(results));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const POST = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
