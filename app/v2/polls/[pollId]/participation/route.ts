/** GET /v2/polls/{pollId}/participation (spec §2.6, §4.2): one entry per broadcast, newest first, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import {
  participationCursorPosition,
  participationQuerySchema,
  serializePollParticipation,
  toParticipationFilters,
} from "@/lib/api/v2/participation";
import { listPollParticipation } from "@/lib/domain/participation";

export const GET = apiRoute<{ pollId: string }>("v2", async ({ url, actor, params }) => {
  const id = parseId(params.pollId, "Poll");
  const { filters, binding } = toParticipationFilters(parseWith(participationQuerySchema, queryObject(url)), "v2.polls.participation", id);
  const entries = await listPollParticipation(actor, id, filters);
  return json(listEnvelope(pageOf(entries, filters.limit), serializePollParticipation, participationCursorPosition, binding));
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
