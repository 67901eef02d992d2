/**
 * The team's audit log (issue 11): every admin action (invitation, role change, deactivation,
 * reactivation, password-reset link, API key revocation, channel change, first-run setup, Slack
 * sync changes) is one `audit_entries` row written in the same transaction as the change.
 * Only team admins read it, newest first, filtered by action and/or actor, paged by keyset.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ForbiddenError } from "@/lib/domain/errors";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The actions written to the log (dotted `subject.verb`). */
export const AUDIT_ACTIONS = [
  "team.setup",
  "user.add",
  "user.invite",
  "user.accept_invitation",
  "user.role_change",
  "user.deactivate",
  "user.reactivate",
  "user.password_reset_link",
  "api_key.revoke",
  "channel.create",
  "channel.rename",
  "channel.archive",
  "channel.unarchive",
  "channel.members",
  "slack.sync",
  "team.privacy",
  "user.erase",
  "team.retention",
  "retention.applied",
  "user.export",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Writes one entry. `actorId` null means the server itself (commands, sync jobs).
 * @param target what was acted on, e.g. `user:12`, `channel:3`.
 */
export async function recordAudit(
  tx: Tx,
  entry: { teamId: number; actorId: number | null; action: AuditAction; target?: string; details?: Prisma.InputJsonValue },
): Promise<void> {
  await tx.auditEntry.create({
    data: {
      team_id: entry.teamId,
      actor_id: entry.actorId,
      action: entry.action,
      target: entry.target ?? null,
      details: entry.details ?? undefined,
    },
  });
}

export type AuditItem = {
  id: number;
  action: string;
  target: string | null;
  details: unknown;
  createdAt: Date;
  actor: { id: number; realname: string } | null;
};

/**
 * Entries of the actor's team, newest first (admins only).
 * @param input.before id cursor: entries older than this id. @param input.limit 1..200 (default 50).
 * @returns items plus `nextBefore` (null at the end).
 * @throws ForbiddenError for non-admins.
 */
export async function listAudit(
  actor: Actor,
  input: { action?: string; actorId?: number; before?: number; limit?: number } = {},
  tx: Tx = db,
): Promise<{ items: AuditItem[]; nextBefore: number | null }> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can read the audit log");
  const limit = Math.min(200, Math.max(1, input.limit ?? 50));
  const rows = await tx.auditEntry.findMany({
    where: {
      team_id: actor.teamId,
      ...(input.action ? { action: input.action } : {}),
      ...(input.actorId ? { actor_id: input.actorId } : {}),
      ...(input.before ? { id: { lt: input.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: limit + 1,
    select: { id: true, action: true, target: true, details: true, created_at: true, actor: { select: { id: true, realname: true } } },
  });
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({ id: r.id, action: r.action, target: r.target, details: r.details, createdAt: r.created_at, actor: r.actor })),
    nextBefore: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}
