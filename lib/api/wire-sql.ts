/**
 * SQL building blocks of the wire reads (issue 14: PostgreSQL returns an item's finished JSON text,
 * lib/api/v1/reports.ts, lib/api/v2/reports.ts, standups-sql.ts, votes.ts), written once so every
 * wire text escapes and formats alike. Both return raw SQL: pass only trusted alias,
 * column and ORDER BY text, never request input.
 */
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * A compact JSON array (as `json`) of `row_to_json(alias)` over the rows of the enclosing
 * `(SELECT <this> FROM ...)`, in `order`; "[]" without rows. `json_agg` would add spaces and
 * newlines between the elements; `row_to_json` escapes strings as `JSON.stringify` does.
 */
export function jsonArraySql(alias: string, order: string): Prisma.Sql {
  return Prisma.sql`${jsonArrayTextSql(alias, order)}::json`;
}

/**
 * `jsonArraySql` as `text`: for arrays spliced into a larger text by concatenation, which
 * PostgreSQL then neither parses as json nor re-serializes (issue 14, lib/api/v2/votes.ts).
 */
export function jsonArrayTextSql(alias: string, order: string): Prisma.Sql {
  return Prisma.raw(`('[' || COALESCE(string_agg(row_to_json(${alias})::text, ',' ORDER BY ${order}), '') || ']')`);
}

/** `to_char` of a timestamp column as `Date.toISOString()` prints it (UTC, milliseconds, "Z"), whatever the session's TimeZone. */
export function isoTimestampSql(column: string): Prisma.Sql {
  return Prisma.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
}
