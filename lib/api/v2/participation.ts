/**
 * v2 participation at the HTTP edge (spec §2.6, §4.2 GET /v2/standups/{id}/participation and
 * GET /v2/polls/{id}/participation): query schema (since inclusive, until exclusive, cursor,
 * limit 1..100 default 30), cursor binding (endpoint, checkin id, since, until) and serializers.
 * The routes send each entry as the JSON text PostgreSQL builds (`listParticipationWires`, at the
 * end); the serializers are its reference (lib/api/v2/participation.test.ts proves them equal).
 */
import { z } from "zod";
import { type CursorPosition, decodeDateIdCursor } from "@/lib/api/cursor";
import { listEnvelopeSchema } from "@/lib/api/envelope";
import { zDate, zLimit } from "@/lib/api/query";
import type { ListSpec } from "@/lib/api/route";
import { zCalendarDate, zCount, zId } from "@/lib/api/wire";
import { db, queryRows, type Tx } from "@/lib/db";
import type { CheckinKind } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import {
  PARTICIPATION_DEFAULT_LIMIT,
  type ParticipationEntry,
  type ParticipationFilters,
  participationPageSql,
  participationRateSql,
} from "@/lib/domain/participation";
import { Prisma } from "@/lib/generated/prisma/client";

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
export function participationCursorPosition(row: Pick<ParticipationWireRow, "date" | "id">): CursorPosition {
  return [row.date, row.id];
}

/**
 * The list of both participation endpoints (for `listRoute`): the participation query, filters
 * and binding of the `kind`'s endpoint and the path id, `listParticipationWires` (each entry's v2
 * JSON built by PostgreSQL, byte for byte `serializeStandupParticipation` /
 * `serializePollParticipation` below, sent as it is), date-order keyset.
 */
export function participationList(
  kind: CheckinKind,
): ListSpec<typeof participationQuerySchema, ParticipationFilters, ParticipationWireRow> {
  const endpoint = kind === "poll" ? "v2.polls.participation" : "v2.standups.participation";
  return {
    query: participationQuerySchema,
    filters: (query, id) => toParticipationFilters(query, endpoint, id),
    load: ({ actor, filters, id }) => listParticipationWires(actor, kind, id, filters),
    wire: (row) => row.json,
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

/**
 * An occurrence of a participation page as its v2 wire JSON (spec §2.6): the keyset position
 * (`date` "YYYY-MM-DD", occurrence `id`) and `json`, the exact text of
 * `JSON.stringify(serializeStandupParticipation(entry))` / `serializePollParticipation(entry)`
 * (below).
 */
export type ParticipationWireRow = { date: string; id: number; json: string };

/**
 * `listParticipation` (lib/domain/participation.ts) with each entry as its finished v2 wire JSON
 * text, built by PostgreSQL in the same one statement (`participationPageSql`) (same visibility gate, counts, range, keyset and `limit + 1` rows): the
 * keys in the serializers' order (standup_id | poll_id, is_poll, date, expected, responded,
 * participation_rate, and for standups excluded {vacation}), compact (`row_to_json` over LATERAL
 * rows; the bigint counts print as plain numbers), the rate by `participationRateSql`. The routes
 * send these texts as they are (issue 14). lib/api/v2/participation.test.ts compares both
 * renderings byte for byte.
 * @returns up to `limit + 1` rows, date desc, id desc.
 * @throws NotFoundError ("Standup" / "Poll") when the checkin is not visible (spec §4.2).
 */
export async function listParticipationWires(
  actor: Actor,
  kind: CheckinKind,
  id: number,
  filters: ParticipationFilters,
  client: Tx = db,
): Promise<ParticipationWireRow[]> {
  const isPoll = kind === "poll";
  const rate = participationRateSql(Prisma.sql`p.responded`, Prisma.sql`p.expected`);
  const entry = isPoll
    ? Prisma.sql`SELECT p.checkin_id AS poll_id, true AS is_poll, p.date, p.expected, p.responded, ${rate} AS participation_rate`
    : Prisma.sql`SELECT p.checkin_id AS standup_id, false AS is_poll, p.date, p.expected, p.responded, ${rate} AS participation_rate,
        (SELECT row_to_json(x) FROM (SELECT p.vacation) x) AS excluded`;
  const rows = await queryRows<{ date: string | null; id: number | null; json: string }>(
    participationPageSql(
      actor,
      kind,
      id,
      filters,
      Prisma.sql`p.date, p.id, row_to_json(w)::text AS json`,
      Prisma.sql`, LATERAL (${entry}) w`,
    ),
    client,
  );
  if (!rows.length) throw new NotFoundError(isPoll ? "Poll" : "Standup");
  return rows.filter((r): r is ParticipationWireRow => r.id !== null);
}
