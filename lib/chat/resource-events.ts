/**
 * Webhook events whose `data` is a v2 resource (issue 9): `report.*` carry the v2 report (spec
 * §2.4), `poll.created` the v2 poll. Kept apart from lib/chat/events.ts because the serializers
 * import the domain: the domain's writers load this module lazily (`await import(...)`) inside
 * their transaction, which keeps the module graph free of cycles.
 */
import { serializePollV2 } from "@/lib/api/v2/polls";
import { serializeReportV2 } from "@/lib/api/v2/reports";
import { INCLUDE_VALUES } from "@/lib/api/v2/standups";
import { queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { isAnonymousReportHeld } from "@/lib/domain/anonymous-release";
import { getPoll } from "@/lib/domain/polls";
import { loadReportView } from "@/lib/domain/report-writes";
import type { ReportView } from "@/lib/domain/reports";
import { emitEvent } from "@/lib/domain/webhook-events";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Emits `report.submitted|updated|deleted` with the v2 report (as it is after the change; for
 * `report.deleted` as it was just before removal, so call it before discarding). Nothing for an
 * anonymous report held back below the anonymity threshold (lib/domain/anonymous-release.ts).
 */
export async function emitReportEvent(
  tx: Tx,
  type: "report.submitted" | "report.updated" | "report.deleted",
  reportId: number,
): Promise<number> {
  // One raw statement: the report's team and whether an enabled endpoint of it subscribes to `type`.
  const [report] = await queryRows<{ team_id: number; listening: boolean }>(
    Prisma.sql`SELECT r.team_id, EXISTS (SELECT 1 FROM webhook_endpoints w
        WHERE w.team_id = r.team_id AND w.disabled_at IS NULL AND ${type}::text = ANY(w.events)) AS listening
      FROM reports r WHERE r.id = ${reportId}`,
    tx,
  );
  if (!report?.listening) return 0;
  if (await isAnonymousReportHeld(tx, reportId)) return 0;
  return emitEvent(tx, report.team_id, type, serializeReportV2(await loadReportView(reportId, tx)));
}

/**
 * Emits a `report.*` event for a report whose v2 view the writer already holds (the two-statement
 * submission, lib/domain/report-submission.ts), so nothing is read back. The caller knows that an
 * endpoint listens; this still enqueues one delivery per subscribed endpoint. An anonymous report
 * goes through `emitReportEvent` (held below k; its stored coarse times, not the writer's clock).
 */
export function emitReportViewEvent(
  tx: Tx,
  type: "report.submitted" | "report.updated" | "report.deleted",
  teamId: number,
  view: ReportView,
): Promise<number> {
  if (view.is_anonymous) return emitReportEvent(tx, type, view.id);
  return emitEvent(tx, teamId, type, serializeReportV2(view));
}

/** Emits `poll.created` with the v2 poll (questions included) as its creator sees it. */
export async function emitPollCreated(tx: Tx, actor: Actor, pollId: number): Promise<number> {
  const listening = await tx.webhookEndpoint.count({
    where: { team_id: actor.teamId, disabled_at: null, events: { has: "poll.created" } },
  });
  if (listening === 0) return 0;
  const row = await getPoll(actor, pollId, { withQuestions: true }, tx);
  return emitEvent(tx, actor.teamId, "poll.created", serializePollV2(row, new Set(INCLUDE_VALUES)));
}
