/**
 * v2 response envelopes (spec §2.1): lists are `{ data, next_cursor, has_more }`, single
 * resources `{ data }`. `pageOf` turns a keyset query of `limit + 1` rows into a page.
 */
import { z } from "zod";
import { type CursorPosition, encodeCursor } from "@/lib/api/cursor";

export type ListEnvelope<T> = { data: T[]; next_cursor: string | null; has_more: boolean };

/** A page of a keyset query: `rows` holds up to limit + 1 items; the extra one proves has_more. */
export type Page<T> = { items: T[]; hasMore: boolean; last: T | undefined };

/** Splits `limit + 1` fetched rows into the page and whether more exist. */
export function pageOf<T>(rows: T[], limit: number): Page<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { items, hasMore, last: items[items.length - 1] };
}

/** The cursor after the last item of `page`, or null when no page follows. */
function nextCursor<T>(page: Page<T>, positionOf: (item: T) => CursorPosition, binding: unknown): string | null {
  return page.hasMore && page.last !== undefined ? encodeCursor(positionOf(page.last), binding) : null;
}

/** Builds the list envelope; `positionOf` gives the keyset position of the last item. */
export function listEnvelope<T, S>(
  page: Page<T>,
  serialize: (item: T) => S,
  positionOf: (item: T) => CursorPosition,
  binding: unknown,
): ListEnvelope<S> {
  return {
    data: page.items.map(serialize),
    next_cursor: nextCursor(page, positionOf, binding),
    has_more: page.hasMore,
  };
}

/**
 * `JSON.stringify(listEnvelope(...))` for items that are already JSON text (`itemJson` returns
 * one item's JSON, e.g. built in SQL): the same bytes, without parsing the items.
 */
export function listEnvelopeText<T>(
  page: Page<T>,
  itemJson: (item: T) => string,
  positionOf: (item: T) => CursorPosition,
  binding: unknown,
): string {
  const cursor = JSON.stringify(nextCursor(page, positionOf, binding));
  return `{"data":[${page.items.map(itemJson).join(",")}],"next_cursor":${cursor},"has_more":${page.hasMore}}`;
}

/** `JSON.stringify({ data })` for a resource that is already JSON text (e.g. built in SQL): the single-resource envelope of spec §2.1. */
export function dataEnvelopeText(json: string): string {
  return `{"data":${json}}`;
}

/** v2 list envelope (spec §2.1) around `item`. */
export function listEnvelopeSchema<T extends z.ZodType>(item: T, id: string) {
  return z
    .strictObject({
      data: z.array(item),
      next_cursor: z.string().nullable().meta({ description: "Cursor of the next page; null when `has_more` is false." }),
      has_more: z.boolean(),
    })
    .meta({ id });
}

/** v2 single-resource envelope `{ data }` (spec §2.1) around `item`. */
export function dataEnvelopeSchema<T extends z.ZodType>(item: T, id: string) {
  return z.strictObject({ data: item }).meta({ id });
}

/** DELETE /v2/reports/{reportId} (spec §4.2): `{success: true}`. */
export const successV2Schema = z.strictObject({ success: z.literal(true).meta({ description: "Always true." }) }).meta({ id: "SuccessV2" });
