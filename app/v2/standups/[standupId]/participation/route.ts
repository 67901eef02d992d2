/** GET /v2/standups/{standupId}/participation (spec §2.6, §4.2): one entry per occurrence, newest first, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
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

export const OPTIONS = preflight;
