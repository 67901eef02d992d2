/**
 * Full-text search over answer text (dashboard report search and exports, issue 16), with
 * PostgreSQL's `websearch_to_tsquery` (quoted phrases, `or`, `-word`) in the English
 * configuration. The expression `to_tsvector('english', a.text)` must stay exactly as written so
 * the GIN index `answers_text_fts_idx` (migration 20261122164920) serves it.
 */
import type { Tx } from "@/lib/db";

/** Longest query accepted (characters); longer input is cut. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * Ids of the team's reports submitted in [since, until) with an answer matching `query`
 * (visibility is applied by the caller's report query, which filters on these ids).
 */
export async function matchingReportIds(client: Tx, input: { teamId: number; query: string; since: Date; until: Date }): Promise<number[]> {
  const query = input.query.trim().slice(0, MAX_SEARCH_LENGTH);
  if (!query) return [];
  const rows = await client.$queryRaw<Array<{ report_id: number }>>`
    SELECT DISTINCT a.report_id
    FROM answers a JOIN reports r ON r.id = a.report_id
    WHERE a.team_id = ${input.teamId}
      AND to_tsvector('english', a.text) @@ websearch_to_tsquery('english', ${query})
      AND r.status = 'submitted' AND r.submitted_at >= ${input.since} AND r.submitted_at < ${input.until}`;
  return rows.map((r) => r.report_id);
}
