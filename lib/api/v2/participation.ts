/**
 * v2 participation at the HTTP edge (spec §2.6, §4.2 GET /v2/standups/{id}/participation and
 * GET /v2/polls/{id}/participation): query schema (since inclusive, until exclusive, cursor,
 * limit 1..100 default 30), cursor binding (endpoint, checkin id, since, until) and serializers.
 * The routes read the entries with `listParticipation` (lib/domain/participation.ts) and render them
 * with the serializers below. (A rendering of the same JSON in SQL was measured by
 * `npm run bench:machinery` at −7%…+5%, below the 10% bar of issue 51, and removed.)
 */
import { z } from "zod";
import { type CursorPosition, decodeDateIdCursor } from "@/lib/api/cursor";
import { listEnvelopeSchema } from "@/lib/api/envelope";
import { zDate, zLimit } from "@/lib/api/query";
import type { ListSpec } from "@/lib/api/route";
import { zCalendarDate, zCount, zId } from "@/lib/api/wire";
import type { CheckinKind } from "@/lib/domain/access";
import {
  listParticipation,
  PARTICIPATION_DEFAULT_LIMIT,
  type ParticipationEntry,
  type ParticipationFilters,
} from "@/lib/domain/participation";

/** Query of both participation endpoints. */
export const participationQuerySchema = z
  .object({
    since: zDate.optional(),
    until: zDate.optional(),
    cursor: z.string().min(1, "must not be empty").optional(),
    limit: zLimit(PARTICIPATION_DEFAULT_LIMIT),
  })
  .superRefine((q, ctx) => {
    if (q.since && q.until && q.since > q.until)
      ctx.addIssue({ code: "custom", path: ["since"], message: "must not be after until (reversed range)" });
  });

export type ParticipationQuery = z.output<typeof participationQuerySchema>;

/**
 * Domain filters and cursor binding of a participation query.
 * @throws InvalidParameterError for a garbage, tampered or mismatched cursor.
 */
export function toParticipationFilters(
  q: ParticipationQuery,
  endpoint: "v2.standups.participation" | "v2.polls.participation",
  checkinId: number,
) {
  const binding = { e: endpoint, id: checkinId, since: q.since?.toISOString() ?? null, until: q.until?.toISOString() ?? null };
  const after = decodeDateIdCursor(q.cursor, binding);
  const filters: ParticipationFilters = { since: q.since, until: q.until, after, limit: q.limit };
  return { filters, binding };
}

/** Keyset position of a participation row (date desc, occurrence id desc): `[date, id]`. */
export function participationCursorPosition(row: Pick<ParticipationEntry, "date" | "occurrenceId">): CursorPosition {
  return [row.date, row.occurrenceId];
}

/**
 * The list of both participation endpoints (for `listRoute`): the participation query, filters
 * and binding of the `kind`'s endpoint and the path id, `listParticipation` rendered by
 * `serializeStandupParticipation` / `serializePollParticipation` below, date-order keyset.
 */
export function participationList(kind: CheckinKind): ListSpec<typeof participationQuerySchema, ParticipationFilters, ParticipationEntry> {
  const endpoint = kind === "poll" ? "v2.polls.participation" : "v2.standups.participation";
  return {
    query: participationQuerySchema,
    filters: (query, id) => toParticipationFilters(query, endpoint, id),
    load: ({ actor, filters, id }) => listParticipation(actor, kind, id, filters),
    serialize: kind === "poll" ? serializePollParticipation : serializeStandupParticipation,
    position: participationCursorPosition,
  };
}

const participationShape = {
  date: zCalendarDate,
  responded: zCount,
  participation_rate: z.number().min(0).max(1).meta({ description: "responded / expected, 0–1." }),
};

/** Standup participation entry (spec §2.6). */
export const standupParticipationV2Schema = z
  .strictObject({
    standup_id: zId,
    is_poll: z.literal(false),
    ...participationShape,
    expected: zCount.meta({ description: "Members expected to respond (vacation/out-of-office non-responders excluded)." }),
    excluded: z.strictObject({ vacation: zCount.meta({ description: "Out-of-office/vacation members excluded." }) }),
  })
  .meta({ id: "StandupParticipationV2" });

/** Poll participation entry (spec §2.6). */
export const pollParticipationV2Schema = z
  .strictObject({
    poll_id: zId,
    is_poll: z.literal(true),
    ...participationShape,
    expected: zCount.meta({ description: "The poll's recipient count." }),
  })
  .meta({ id: "PollParticipationV2" });

export type V2StandupParticipation = z.output<typeof standupParticipationV2Schema>;
export type V2PollParticipation = z.output<typeof pollParticipationV2Schema>;
export const standupParticipationListV2Schema = listEnvelopeSchema(standupParticipationV2Schema, "StandupParticipationListV2");
export const pollParticipationListV2Schema = listEnvelopeSchema(pollParticipationV2Schema, "PollParticipationListV2");

/** The counts both entry kinds share, in wire order (date, expected, responded, participation_rate). */
function participationCounts(e: ParticipationEntry) {
  return { date: e.date, expected: e.expected, responded: e.responded, participation_rate: e.participationRate };
}

/** Standup participation entry (spec §2.6). */
export function serializeStandupParticipation(e: ParticipationEntry): V2StandupParticipation {
  return {
    standup_id: e.checkinId,
    is_poll: false,
    ...participationCounts(e),
    excluded: { vacation: e.excludedVacation },
  };
}

/** Poll participation entry (spec §2.6). */
export function serializePollParticipation(e: ParticipationEntry): V2PollParticipation {
  return {
    poll_id: e.checkinId,
    is_poll: true,
    ...participationCounts(e),
  };
}
