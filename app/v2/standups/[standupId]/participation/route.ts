/** GET /v2/standups/{standupId}/participation (spec §2.6, §4.2): one entry per occurrence, newest first, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId, parseWith, queryObject } from "@/lib/api/query";
import {
  participationCursorPosition,
  participationQuerySchema,
  serializeStandupParticipation,
  toParticipationFilters,
} from "@/lib/api/v2/participation";
import { listStandupParticipation } from "@/lib/domain/participation";

export const GET = apiRoute<{ standupId: string }>("v2", async ({ url, actor, params }) => {
  const id = parseId(params.standupId, "Standup");
  const { filters, binding } = toParticipationFilters(
    parseWith(participationQuerySchema, queryObject(url)),
    "v2.standups.participation",
    id,
  );
  const entries = await listStandupParticipation(actor, id, filters);
  return json(listEnvelope(pageOf(entries, filters.limit), serializeStandupParticipation, participationCursorPosition, binding));
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
