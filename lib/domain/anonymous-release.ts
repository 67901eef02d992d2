/**
 * Anonymous reports held back until k (issue 45 "Anonymity that holds"): while fewer than the
 * team's k people answered a run (`teams.anonymity_threshold`; an ad-hoc report's group is its
 * standup's other ad-hoc reports of the same UTC day, as `anonymousReportShownSql`), an anonymous
 * report's broadcast stays `held` in the outbox and its `report.submitted` webhook is not sent
 * (nor `report.updated` / `report.deleted` for it). When the run reaches k, the held broadcasts of
 * its anonymous reports are released together in a random order (lib/domain/outbox-reports.ts
 * `releaseHeldBroadcasts`) and `report.submitted` is sent for each of them, in a random order, with
 * the report as stored (coarse times). Past k, an anonymous report is posted and sent at once.
 */
import { randomInt } from "node:crypto";
import { queryRows, type Tx } from "@/lib/db";
import { holdReportBroadcast, releaseHeldBroadcasts } from "@/lib/domain/outbox-reports";
import { emitResourceEvent } from "@/lib/domain/webhook-events";
import { Prisma } from "@/lib/generated/prisma/client";

/** The run of report `r` as SQL over `x`: same occurrence, or (ad hoc) same standup and UTC day. */
function sameGroupSql(): Prisma.Sql {
  const day = Prisma.sql`(date_trunc('day', r.submitted_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
  return Prisma.sql`x.status = 'submitted' AND CASE WHEN r.occurrence_id IS NOT NULL THEN x.occurrence_id = r.occurrence_id
    ELSE x.checkin_id = r.checkin_id AND x.occurrence_id IS NULL AND x.submitted_at >= ${day} AND x.submitted_at < ${day} + interval '1 day' END`;
}

/** A report's anonymity group: whether it is anonymous, how many people answered its run, k, and the run's other anonymous reports. */
type Group = { team_id: number; is_anonymous: boolean; answered: number; threshold: number; others: number[] };

async function groupOf(tx: Tx, reportId: number): Promise<Group | null> {
  const [g] = await queryRows<Group>(
    Prisma.sql`SELECT r.team_id, r.is_anonymous, t.anonymity_threshold AS threshold,
        (SELECT count(DISTINCT x.user_id)::int FROM reports x WHERE ${sameGroupSql()}) AS answered,
        ARRAY(SELECT x.id FROM reports x WHERE ${sameGroupSql()} AND x.is_anonymous AND x.id <> r.id) AS others
      FROM reports r JOIN teams t ON t.id = r.team_id WHERE r.id = ${reportId}`,
    tx,
  );
  return g ?? null;
}

/**
 * Whether report `reportId` is an anonymous report still held back (its run below k): its
 * `report.*` webhooks are then not sent (lib/domain/report-events.ts).
 */
export async function isAnonymousReportHeld(tx: Tx, reportId: number): Promise<boolean> {
  const g = await groupOf(tx, reportId);
  if (!g) return false;
  return g.is_anonymous && g.answered < g.threshold;
}

/**
 * After a report was submitted (in the submission's transaction): an anonymous report's broadcast
 * is held while the run is below k; when this answer (anonymous or not) brings the run to k, the
 * run's held broadcasts are released and the held `report.submitted` events sent (see the module
 * comment); past k, an anonymous report's own `report.submitted` is sent. The caller sends a named
 * report's own event.
 * @returns whether the report is held.
 */
export async function settleAnonymousReport(tx: Tx, reportId: number, now: Date = new Date()): Promise<boolean> {
  const g = await groupOf(tx, reportId);
  if (!g) return false;
  if (g.is_anonymous && g.answered < g.threshold) {
    await holdReportBroadcast(tx, reportId);
    return true;
  }
  if (!g.is_anonymous && (g.answered !== g.threshold || !g.others.length)) return false;
  // Not held (the run has k answers): the events go out as references (lib/domain/report-events.ts).
  const emit = (id: number) => emitResourceEvent(tx, g.team_id, "report.submitted", { kind: "report", id }, now);
  if (g.answered === g.threshold) {
    // This answer reached k: everything held of the run goes out now, an anonymous report's own post with it.
    if (g.is_anonymous) await holdReportBroadcast(tx, reportId);
    const ids = [...g.others, ...(g.is_anonymous ? [reportId] : [])]
      .map((id) => ({ id, key: randomInt(2 ** 31) }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.id);
    await releaseHeldBroadcasts(tx, ids, now);
    for (const id of ids) await emit(id);
    return false;
  }
  await emit(reportId);
  return false;
}

/**
 * After the team's k went down from `fromK` to `toK` (lib/domain/anonymity.ts
 * `setAnonymityThreshold`): the runs that now have k answers release what was held — their
 * anonymous reports' broadcasts and `report.submitted` events, in a random order. Raising k
 * releases nothing (what was sent stays sent; the reads hide those runs again).
 * @returns the number of reports released.
 */
export async function releaseRunsReachingThreshold(tx: Tx, teamId: number, fromK: number, toK: number, now = new Date()): Promise<number> {
  if (toK >= fromK) return 0;
  const rows = await queryRows<{ id: number }>(
    Prisma.sql`SELECT r.id FROM reports r WHERE r.team_id = ${teamId} AND r.is_anonymous AND r.status = 'submitted'
      AND (SELECT count(DISTINCT x.user_id) FROM reports x WHERE ${sameGroupSql()}) BETWEEN ${toK} AND ${fromK - 1}`,
    tx,
  );
  const ids = rows
    .map((r) => ({ id: r.id, key: randomInt(2 ** 31) }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.id);
  await releaseHeldBroadcasts(tx, ids, now);
  for (const id of ids) await emitResourceEvent(tx, teamId, "report.submitted", { kind: "report", id }, now);
  return ids.length;
}
