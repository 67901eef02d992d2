/**
 * Full-text search over answer text (dashboard report search and exports, issue 16), with
 * PostgreSQL's `websearch_to_tsquery` (quoted phrases, `or`, `-word`) in the English
 * configuration. The expression `to_tsvector('english', a.text)` must stay exactly as written so
 * the GIN index `answers_text_fts_idx` (migration 20261122164920) serves it.
 */
import { Prisma } from "@/lib/generated/prisma/client";

/** Longest query accepted (characters); longer input is cut. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * SQL condition over the reports alias `r`: the report (of team `teamId`) has an answer matching
 * `query` (nothing matches a blank query). Visibility and the window are the caller's conditions.
 */
export function matchingReportsSql(teamId: number, query: string, r: string): Prisma.Sql {
  const q = query.trim().slice(0, MAX_SEARCH_LENGTH);
  if (!q) return Prisma.sql`FALSE`;
  return Prisma.sql`${Prisma.raw(`"${r}"`)}.id IN (SELECT a.report_id FROM answers a
    WHERE a.team_id = ${teamId} AND to_tsvector('english', a.text) @@ websearch_to_tsquery('english', ${q}))`;
}
