/**
 * GET /v2/standups/{id}/summaries at the HTTP edge (issue 15, a v2 extension following every v2
 * convention): query schema (cursor, limit 1..100 default 25), cursor binding (endpoint, standup
 * id), the response schema (feeds the OpenAPI document) and the serializer.
 */
import { z } from "zod";
import { type CursorPosition, decodeDateIdCursor } from "@/lib/api/cursor";
import { listEnvelopeSchema } from "@/lib/api/envelope";
import { zLimit } from "@/lib/api/query";
import { type OccurrenceSummaryView, SUMMARIES_DEFAULT_LIMIT, type SummaryListFilters } from "@/lib/domain/summaries";

/** Query of the summaries list. */
export const summaryListQuerySchema = z.object({
  cursor: z.string().min(1, "must not be empty").optional(),
  limit: zLimit(SUMMARIES_DEFAULT_LIMIT),
});

/**
 * Domain filters and cursor binding of a summaries query.
 * @throws InvalidParameterError for a garbage, tampered or mismatched cursor.
 */
export function toSummaryListFilters(q: z.output<typeof summaryListQuerySchema>, standupId: number) {
  const binding = { e: "v2.standups.summaries", id: standupId };
  const after = decodeDateIdCursor(q.cursor, binding);
  return { filters: { limit: q.limit, after } satisfies SummaryListFilters, binding };
}

/** Keyset position of a summary (date desc, id desc). */
export function summaryCursorPosition(s: OccurrenceSummaryView): CursorPosition {
  return [s.date, s.id];
}

const zName = z.string().nullable();
/** One summary (v2 extension). */
export const summaryV2Schema = z
  .strictObject({
    id: z.number().int().positive(),
    standup_id: z.number().int().positive(),
    occurrence_id: z.number().int().positive(),
    date: z.string().meta({ description: "Occurrence date, YYYY-MM-DD.", example: "2026-11-20" }),
    engine: z.string().meta({ description: 'How it was made: "offline" or "model:<name>".', example: "offline" }),
    created_at: z.string().meta({ description: "ISO 8601 timestamp the summary was made." }),
    text: z.string().meta({ description: "Plain-text rendering of the sections." }),
    sections: z.strictObject({
      overview: z.string().nullable().meta({ description: "Abstractive overview (language model only), else null." }),
      participation: z.strictObject({ responded: z.number().int().min(0), expected: z.number().int().min(0) }),
      blockers: z.array(
        z.strictObject({
          user_id: zName.meta({ description: "Null when the report is anonymous." }),
          name: zName,
          question: z.string(),
          text: z.string(),
        }),
      ),
      blocked_members: z.array(z.strictObject({ user_id: z.string(), name: z.string() })),
      themes: z.array(z.strictObject({ name: z.string(), count: z.number().int().min(1) })),
      mood: z.array(
        z.strictObject({ question: z.string(), choices: z.array(z.strictObject({ text: z.string(), count: z.number().int().min(1) })) }),
      ),
    }),
  })
  .meta({ id: "OccurrenceSummaryV2" });

export const summaryListV2Schema = listEnvelopeSchema(summaryV2Schema, "OccurrenceSummaryListV2");

export type V2Summary = z.output<typeof summaryV2Schema>;

/** Serializes one summary (ISO dates, explicit nulls). */
export function serializeSummaryV2(s: OccurrenceSummaryView): V2Summary {
  return {
    id: s.id,
    standup_id: s.standupId,
    occurrence_id: s.occurrenceId,
    date: s.date,
    engine: s.engine,
    created_at: s.createdAt.toISOString(),
    text: s.text,
    sections: s.sections,
  };
}
