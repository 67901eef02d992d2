/**
 * The `report.submitted|updated|deleted` webhook events of the report writes (issue 9), written as
 * references in the writer's transaction (lib/domain/webhook-events.ts `emitResourceEvent`): the
 * delivery renders the v2 report (spec §2.4) at its first attempt (lib/api/v2/webhook-data.ts). A
 * discarded report still renders (its rows are kept), so `report.deleted` carries the report as it
 * was. An anonymous report held back below the anonymity threshold emits nothing; its
 * `report.submitted` goes out when its run reaches k (lib/domain/anonymous-release.ts).
 */
import { queryRows, type Tx } from "@/lib/db";
import { isAnonymousReportHeld } from "@/lib/domain/anonymous-release";
import { emitResourceEvent } from "@/lib/domain/webhook-events";
import { Prisma } from "@/lib/generated/prisma/client";

/** The report events. */
export type ReportEventType = "report.submitted" | "report.updated" | "report.deleted";

/**
 * Emits `type` about report `reportId` to the team's subscribed endpoints. Nothing when no
 * endpoint listens, or for an anonymous report held back below the anonymity threshold.
 * @returns the number of deliveries enqueued.
 */
export async function emitReportEvent(tx: Tx, type: ReportEventType, reportId: number): Promise<number> {
  // One raw statement: the report's team and whether an enabled endpoint of it subscribes to `type`.
  const [report] = await queryRows<{ team_id: number; listening: boolean }>(
    Prisma.sql`SELECT r.team_id, EXISTS (SELECT 1 FROM webhook_endpoints w
        WHERE w.team_id = r.team_id AND w.disabled_at IS NULL AND ${type}::text = ANY(w.events)) AS listening
      FROM reports r WHERE r.id = ${reportId}`,
    tx,
  );
  if (!report?.listening) return 0;
  if (await isAnonymousReportHeld(tx, reportId)) return 0;
  return emitResourceEvent(tx, report.team_id, type, { kind: "report", id: reportId });
}

/**
 * Emits `type` about a report the writer holds (the two-statement submission and the edit,
 * lib/domain/report-writes.ts), when the writer already knows that an endpoint listens: one
 * delivery per subscribed endpoint, nothing read back. An anonymous report goes through
 * `emitReportEvent` (held below k).
 */
export function emitReportViewEvent(
  tx: Tx,
  type: ReportEventType,
  teamId: number,
  report: { id: number; is_anonymous: boolean },
): Promise<number> {
  if (report.is_anonymous) return emitReportEvent(tx, type, report.id);
  return emitResourceEvent(tx, teamId, type, { kind: "report", id: report.id });
}
