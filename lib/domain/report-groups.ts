/**
 * What the grouped reports feed (dashboard, issue 16) adds to a page of reports read with
 * `listReports`: each report's occurrence and local date, whether its answers were edited after
 * submission ("(edited)"), and per occurrence who answered, who was excused and who did not
 * answer (names never for anonymous standups). Two queries per page, whatever its size.
 */

import { db, queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { listMemberOccurrences } from "@/lib/domain/member-participation";
import { Prisma } from "@/lib/generated/prisma/client";

/** Extra facts of one listed report. `date` is the occurrence's local date (else the UTC day of posting). */
export type ReportMeta = { occurrenceId: number | null; date: string; edited: boolean; own: boolean };

/** Roll call of one occurrence. */
export type OccurrenceRollCall = {
  occurrenceId: number;
  answered: number;
  excused: number;
  /** Names of who did not answer; null for anonymous standups. */
  notAnswered: string[] | null;
};

/** An answer changed more than this long after submission counts as an edit (milliseconds). */
const EDIT_SLACK_MS = 2_000;

/**
 * Metadata of the given reports (ids the caller already read through `listReports`) and the roll
 * call of their occurrences.
 */
export async function getReportGroups(
  actor: Actor,
  reportIds: number[],
  client: Tx = db,
): Promise<{ meta: Map<number, ReportMeta>; rollCalls: Map<number, OccurrenceRollCall> }> {
  const meta = new Map<number, ReportMeta>();
  const rollCalls = new Map<number, OccurrenceRollCall>();
  if (reportIds.length === 0) return { meta, rollCalls };
  const rows = await queryRows<{
    id: number;
    occurrence_id: number | null;
    checkin_id: number;
    date: string;
    edited: boolean;
    user_id: number;
  }>(
    Prisma.sql`
    SELECT r.id, r.occurrence_id, r.checkin_id, r.user_id,
           to_char(COALESCE(o.date, (r.submitted_at AT TIME ZONE 'UTC')::date), 'YYYY-MM-DD') AS date,
           NOT r.is_anonymous AND COALESCE((SELECT max(a.updated_at) FROM answers a WHERE a.team_id = r.team_id AND a.report_id = r.id) > r.submitted_at + ${EDIT_SLACK_MS} * interval '1 millisecond', false) AS edited
    FROM reports r LEFT JOIN occurrences o ON o.id = r.occurrence_id
    WHERE r.team_id = ${actor.teamId} AND r.id = ANY(${reportIds}::int[])`,
    client,
  );
  for (const r of rows) meta.set(r.id, { occurrenceId: r.occurrence_id, date: r.date, edited: r.edited, own: r.user_id === actor.userId });
  const withOccurrence = rows.filter((r) => r.occurrence_id !== null);
  if (withOccurrence.length === 0) return { meta, rollCalls };
  const dates = withOccurrence.map((r) => r.date).sort();
  const occurrenceIds = new Set(withOccurrence.map((r) => r.occurrence_id));
  const members = await listMemberOccurrences(
    actor.teamId,
    { checkinIds: [...new Set(withOccurrence.map((r) => r.checkin_id))], since: dates[0], until: dates[dates.length - 1] },
    client,
  );
  for (const m of members) {
    if (!occurrenceIds.has(m.occurrenceId)) continue;
    const call = rollCalls.get(m.occurrenceId) ?? {
      occurrenceId: m.occurrenceId,
      answered: 0,
      excused: 0,
      notAnswered: m.anonymous ? null : [],
    };
    if (m.status === "answered") call.answered++;
    else if (m.status === "excused") call.excused++;
    else call.notAnswered?.push(m.realname);
    rollCalls.set(m.occurrenceId, call);
  }
  return { meta, rollCalls };
}
