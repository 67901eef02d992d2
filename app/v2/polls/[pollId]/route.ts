/** GET /v2/polls/{pollId} (spec §4.2): one of the caller's polls as `{data}`; 404 for any non-visible poll. */
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import { serializePollV2 } from "@/lib/api/v2/polls";
import { checkinReadQuerySchema } from "@/lib/api/v2/standups";
import { getPoll } from "@/lib/domain/polls";

export const GET = apiRoute<{ pollId: string }>("v2", async ({ url, actor, params }) => {
  const id = parseId(params.pollId, "Poll");
  const { include } = parseWith(checkinReadQuerySchema, queryObject(url));
  const row = await getPoll(actor, id, { withQuestions: include.has("questions") });
  return json({ data: serializePollV2(row, include) });
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
