/** GET /v2/standups/{standupId} (spec §4.2): one visible standup as `{data}`; 404 otherwise. */
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import { checkinReadQuerySchema, serializeCheckinV2 } from "@/lib/api/v2/standups";
import { getStandup } from "@/lib/domain/standups";

export const GET = apiRoute<{ standupId: string }>("v2", async ({ url, actor, params }) => {
  const id = parseId(params.standupId, "Standup");
  const { include } = parseWith(checkinReadQuerySchema, queryObject(url));
  const row = await getStandup(actor, id, { withQuestions: include.has("questions") });
  return json({ data: serializeCheckinV2(row, include) });
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
