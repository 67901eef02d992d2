/**
 * Building blocks of the wire schemas (api-spec.md §2). Every response shape is ONE zod schema,
 * written beside its serializer (lib/api/v1/*.ts, lib/api/v2/*.ts, envelopes in
 * lib/api/envelope.ts, errors in lib/api/errors.ts); the serializer's return type is inferred
 * from it, the OpenAPI document (lib/openapi/document.ts) renders it, and
 * tests/api/openapi.test.ts parses real responses with it. Objects are strict, so a serializer
 * field the contract does not name, or a contract field the serializer does not send, fails there.
 * Schemas with a `meta({ id })` become `components.schemas` entries; the rest are inlined.
 */
import { z } from "zod";
import type {} from "zod-openapi";

/** A numeric id on the wire. */
export const zId = z.number().int().positive().meta({ example: 42 });

/** A chat-style user id, e.g. U0123ABCD. */
export const zChatUserId = z.string().meta({ description: "Chat-style user id.", example: "U0123ABCD" });

/** Drops zod's long validation regex from a rendered string format (the `format` says it). */
const dropPattern = ({ jsonSchema }: { jsonSchema: { pattern?: string } }) => {
  delete jsonSchema.pattern;
};

/** An ISO 8601 timestamp (UTC, `toISOString()`). */
export const zTimestamp = z.iso
  .datetime({ offset: true })
  .meta({ description: "ISO 8601 timestamp.", example: "2026-03-02T09:00:00.000Z", override: dropPattern });

/** A calendar date, YYYY-MM-DD. */
export const zCalendarDate = z.iso.date().meta({ description: "Calendar date, YYYY-MM-DD.", example: "2026-03-02", override: dropPattern });

/** A count (whole number ≥ 0). */
export const zCount = z.number().int().min(0);

/** A category of open-ended answers with its count (spec §2.5; v1 poll results). */
export const categoryCountSchema = z.strictObject({
  name: z.string(),
  count: zCount.meta({ description: "May sum to more than `total_responses` (multi-label)." }),
});
