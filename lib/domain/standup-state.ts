/**
 * Pause / resume a standup and change its privacy flags from the dashboard. Same access rule as
 * lib/domain/standup-admin.ts: the standup must be visible to the caller
 * (`v1ListableStandupWhere(actor, { admin: true })`), and only its creator or a team admin may
 * change it. Resuming recomputes `next_run_at` so the scheduler picks it up again.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ForbiddenError, NotFoundError, UnprocessableError } from "@/lib/domain/errors";
import { nextRunAt } from "@/lib/domain/schedule";
import { v1ListableStandupWhere } from "@/lib/domain/visibility";

async function loadEditable(actor: Actor, id: number, tx: Tx) {
  const row = await tx.checkin.findFirst({
    where: { AND: [{ id }, v1ListableStandupWhere(actor, { admin: true })] },
    select: { id: true, owner_id: true, state: true, time: true, timezone: true, days: true },
  });
  if (!row) throw new NotFoundError("Standup");
  if (row.owner_id !== actor.userId && !actor.isAdmin)
    throw new ForbiddenError("Only the creator of this standup or a team admin can change it");
  return row;
}

/** True when the actor may change the standup (creator or team admin). */
export function canManageStandup(actor: Actor, ownerChatId: string): boolean {
  return actor.isAdmin || actor.userChatId === ownerChatId;
}

/**
 * Pauses (`paused`) or resumes (`active`) a standup. Idempotent.
 * @throws NotFoundError (not visible), ForbiddenError (not creator/admin), UnprocessableError (draft).
 */
export async function setStandupState(actor: Actor, input: { standupId: number; state: "active" | "paused" }, tx: Tx = db): Promise<void> {
  const row = await loadEditable(actor, input.standupId, tx);
  if (row.state === "draft") throw new UnprocessableError("A draft standup cannot be paused or resumed");
  if (row.state === input.state) return;
  const next = input.state === "active" ? nextRunAt({ time: row.time, timezone: row.timezone, days: row.days, after: new Date() }) : null;
  await tx.checkin.update({ where: { id: row.id }, data: { state: input.state, next_run_at: next } });
}

/**
 * Sets the anonymous / confidential flags of a standup (fields left undefined are unchanged).
 * Past reports keep the anonymity they were submitted with.
 * @throws NotFoundError, ForbiddenError.
 */
export async function setStandupPrivacy(
  actor: Actor,
  input: { standupId: number; isAnonymous?: boolean; isConfidential?: boolean },
  tx: Tx = db,
): Promise<void> {
  const row = await loadEditable(actor, input.standupId, tx);
  const data: { is_anonymous?: boolean; is_confidential?: boolean } = {};
  if (input.isAnonymous !== undefined) data.is_anonymous = input.isAnonymous;
  if (input.isConfidential !== undefined) data.is_confidential = input.isConfidential;
  if (Object.keys(data).length > 0) await tx.checkin.update({ where: { id: row.id }, data });
}
