/**
 * Undo of a report delete (dashboard, issue 16): the author may restore their own discarded
 * report within `UNDO_WINDOW_MINUTES` of deleting it. The report is submitted again with its
 * answers and original posted_at, and a new broadcast is queued in the chat outbox in the same
 * transaction (the deleted message was removed from the channel).
 */

import { inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { isAnonymousReportHeld } from "@/lib/domain/anonymous-release";
import { NotFoundError } from "@/lib/domain/errors";
import { broadcastReport, holdReportBroadcast } from "@/lib/domain/outbox-reports";

/** How long after a delete the author can still undo it (minutes). */
export const UNDO_WINDOW_MINUTES = 10;

/**
 * Restores the actor's own report discarded less than `UNDO_WINDOW_MINUTES` ago.
 * @throws NotFoundError when there is no such report (not the actor's, not discarded, too old,
 *   or its standup is no longer active or paused).
 */
export async function restoreReport(actor: Actor, input: { reportId: number; now?: Date }, tx?: Tx): Promise<{ reportId: number }> {
  return inTransaction(tx, async (t) => {
    const now = input.now ?? new Date();
    const rows = await t.$queryRaw<Array<{ id: number }>>`
      SELECT r.id FROM reports r JOIN checkins c ON c.id = r.checkin_id
      WHERE r.id = ${input.reportId} AND r.team_id = ${actor.teamId} AND r.user_id = ${actor.userId}
        AND r.status = 'discarded' AND r.submitted_at IS NOT NULL
        AND r.discarded_at >= ${new Date(now.getTime() - UNDO_WINDOW_MINUTES * 60_000)}
        AND c.kind = 'standup' AND c.state IN ('active', 'paused')
      FOR UPDATE OF r`;
    if (!rows.length) throw new NotFoundError("Report");
    await t.report.update({ where: { id: input.reportId }, data: { status: "submitted", discarded_at: null } });
    await broadcastReport(t, input.reportId, now);
    // An anonymous report's post waits again until its run has k answers (issue 45).
    if (await isAnonymousReportHeld(t, input.reportId)) await holdReportBroadcast(t, input.reportId);
    return { reportId: input.reportId };
  });
}
