/**
 * Retention (issue 45). Per team (`teams.retention_days`, null = forever; `retention_mode`):
 * report answers, poll responses and chat message texts older than N days are
 * - "anonymise" (default): answers removed, the fact that someone answered kept — the answer rows of
 *   the reports are deleted, the reports stay; votes keep their choice but lose typed text and
 *   categories; so participation history and vote counts stay true;
 * - "delete": the reports and votes themselves are deleted (participation history loses them).
 * In both modes, delivered chat messages older than N days lose their text, occurrence summaries,
 * stored poll results and webhook delivery payloads older than N days are removed. Audit entries
 * are deleted after `audit_retention_days` (default 365). Age: a report's submission (or creation)
 * time, a vote's, a message's, a summary's, a delivery's creation time.
 *
 * `applyRetention` runs nightly (the `apply_retention` job, lib/jobs/tasks.ts crontab): in batches
 * of `RETENTION_BATCH` rows, one short transaction each (no long locks), idempotent (a second run
 * finds nothing to do and writes nothing); per team that changed something, one audit entry
 * `retention.applied` with the counts and the `retention.applied` webhook event, written together
 * in one transaction after the batches. Backups age out by their own retention (operations).
 */

import { type Db, db as defaultDb, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { recordAudit } from "@/lib/domain/audit";
import { ForbiddenError, InvalidParameterError } from "@/lib/domain/errors";
import { emitEvent } from "@/lib/domain/webhook-events";
import { Prisma } from "@/lib/generated/prisma/client";

/** Rows changed per statement (and per transaction) by `applyRetention`. */
export const RETENTION_BATCH = 1000;
/** Longest retention accepted (days): 100 years. */
export const MAX_RETENTION_DAYS = 36_500;

export type RetentionMode = "anonymise" | "delete";
/** A team's retention settings. `days` null: kept forever. */
export type RetentionSettings = { days: number | null; mode: RetentionMode; auditDays: number };

/** What one run changed for one team. */
export type RetentionCounts = {
  answersDeleted: number;
  reportsDeleted: number;
  votesAnonymised: number;
  votesDeleted: number;
  messagesCleared: number;
  summariesDeleted: number;
  pollResultsDeleted: number;
  webhookDeliveriesDeleted: number;
  auditEntriesDeleted: number;
};

/** The team's retention settings (any member may read them). */
export async function getRetention(actor: Actor, client: Tx = defaultDb): Promise<RetentionSettings> {
  const t = await client.team.findUniqueOrThrow({
    where: { id: actor.teamId },
    select: { retention_days: true, retention_mode: true, audit_retention_days: true },
  });
  return { days: t.retention_days, mode: t.retention_mode as RetentionMode, auditDays: t.audit_retention_days };
}

/**
 * Changes the team's retention settings (admins only), audited as `team.retention`.
 * @throws ForbiddenError for non-admins; InvalidParameterError for days outside 1..MAX_RETENTION_DAYS
 *   (or null), an unknown mode, audit days outside 1..MAX_RETENTION_DAYS.
 */
export async function setRetention(actor: Actor, input: RetentionSettings, tx?: Tx): Promise<void> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change privacy settings");
  const inRange = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_RETENTION_DAYS;
  if (input.days !== null && !inRange(input.days))
    throw new InvalidParameterError(`retention days must be 1..${MAX_RETENTION_DAYS} or empty (forever)`);
  if (input.mode !== "anonymise" && input.mode !== "delete") throw new InvalidParameterError("retention mode must be anonymise or delete");
  if (!inRange(input.auditDays)) throw new InvalidParameterError(`audit retention days must be 1..${MAX_RETENTION_DAYS}`);
  await inTransaction(tx, async (t) => {
    const before = await getRetention(actor, t);
    await t.team.update({
      where: { id: actor.teamId },
      data: { retention_days: input.days, retention_mode: input.mode, audit_retention_days: input.auditDays },
    });
    await recordAudit(t, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: "team.retention",
      target: `team:${actor.teamId}`,
      details: { from: before, to: input },
    });
  });
}

/** Runs `statement` (which changes at most RETENTION_BATCH rows) in its own transaction until it changes none. @returns rows changed. */
async function inBatches(client: Db, statement: Prisma.Sql): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await client.$transaction((t) => t.$executeRaw(statement));
    total += n;
    if (n < RETENTION_BATCH) return total;
  }
}

const ZERO: RetentionCounts = {
  answersDeleted: 0,
  reportsDeleted: 0,
  votesAnonymised: 0,
  votesDeleted: 0,
  messagesCleared: 0,
  summariesDeleted: 0,
  pollResultsDeleted: 0,
  webhookDeliveriesDeleted: 0,
  auditEntriesDeleted: 0,
};

/** Applies one team's retention at `now` (see the module comment). @returns the counts. */
async function applyTeamRetention(
  client: Db,
  team: { id: number; retention_days: number | null; retention_mode: string; audit_retention_days: number },
  now: Date,
): Promise<RetentionCounts> {
  const counts = { ...ZERO };
  const B = RETENTION_BATCH;
  const auditCutoff = new Date(now.getTime() - team.audit_retention_days * 86_400_000);
  counts.auditEntriesDeleted = await inBatches(
    client,
    Prisma.sql`DELETE FROM audit_entries WHERE id IN (SELECT id FROM audit_entries WHERE team_id = ${team.id} AND created_at < ${auditCutoff} LIMIT ${B})`,
  );
  if (team.retention_days === null) return counts;
  const cutoff = new Date(now.getTime() - team.retention_days * 86_400_000);
  const T = team.id;
  const oldReports = Prisma.sql`SELECT r.id FROM reports r WHERE r.team_id = ${T} AND COALESCE(r.submitted_at, r.created_at) < ${cutoff}`;
  // Stored copies first (they are rebuilt from the rows that stay).
  counts.pollResultsDeleted = await inBatches(
    client,
    Prisma.sql`DELETE FROM poll_results WHERE (team_id, occurrence_id) IN (SELECT pr.team_id, pr.occurrence_id FROM poll_results pr
      WHERE pr.team_id = ${T} AND EXISTS (SELECT 1 FROM votes v WHERE v.occurrence_id = pr.occurrence_id AND v.created_at < ${cutoff}
        AND (${team.retention_mode} = 'delete' OR v.text IS NOT NULL OR cardinality(v.categories) > 0)) LIMIT ${B})`,
  );
  counts.summariesDeleted = await inBatches(
    client,
    Prisma.sql`DELETE FROM occurrence_summaries WHERE id IN (SELECT id FROM occurrence_summaries WHERE team_id = ${T} AND created_at < ${cutoff} LIMIT ${B})`,
  );
  counts.webhookDeliveriesDeleted = await inBatches(
    client,
    Prisma.sql`DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE team_id = ${T} AND created_at < ${cutoff}
      AND state <> 'pending' LIMIT ${B})`,
  );
  counts.messagesCleared = await inBatches(
    client,
    Prisma.sql`UPDATE chat_messages SET text = '', blocks = NULL WHERE id IN (SELECT id FROM chat_messages WHERE team_id = ${T}
      AND created_at < ${cutoff} AND delivery_state <> 'pending' AND (text <> '' OR blocks IS NOT NULL) LIMIT ${B})`,
  );
  counts.answersDeleted = await inBatches(
    client,
    Prisma.sql`DELETE FROM answers WHERE id IN (SELECT a.id FROM answers a WHERE a.team_id = ${T} AND a.report_id IN (${oldReports}) LIMIT ${B})`,
  );
  if (team.retention_mode === "delete") {
    counts.reportsDeleted = await inBatches(client, Prisma.sql`DELETE FROM reports WHERE id IN (${oldReports} LIMIT ${B})`);
    counts.votesDeleted = await inBatches(
      client,
      Prisma.sql`DELETE FROM votes WHERE id IN (SELECT id FROM votes WHERE team_id = ${T} AND created_at < ${cutoff} LIMIT ${B})`,
    );
  } else {
    counts.votesAnonymised = await inBatches(
      client,
      Prisma.sql`UPDATE votes SET text = NULL, categories = '{}' WHERE id IN (SELECT id FROM votes WHERE team_id = ${T} AND created_at < ${cutoff}
        AND (text IS NOT NULL OR cardinality(categories) > 0) LIMIT ${B})`,
    );
  }
  return counts;
}

/**
 * Applies every team's retention at `now` (the nightly `apply_retention` job). Teams that changed
 * something get one audit entry `retention.applied` (actor: the server) with the counts, and the
 * `retention.applied` webhook event with `{team_id, applied_at, retention_days, mode, counts}`.
 * @returns the counts per team id (teams without changes omitted).
 */
export async function applyRetention(
  now: Date = new Date(),
  client: Db = defaultDb,
  scope: { teamId?: number } = {},
): Promise<Map<number, RetentionCounts>> {
  const teams = await client.team.findMany({
    where: scope.teamId === undefined ? {} : { id: scope.teamId },
    select: { id: true, retention_days: true, retention_mode: true, audit_retention_days: true },
    orderBy: { id: "asc" },
  });
  const out = new Map<number, RetentionCounts>();
  for (const team of teams) {
    const counts = await applyTeamRetention(client, team, now);
    if (!Object.values(counts).some((n) => n > 0)) continue;
    out.set(team.id, counts);
    await client.$transaction(async (tx) => {
      await recordAudit(tx, { teamId: team.id, actorId: null, action: "retention.applied", target: `team:${team.id}`, details: counts });
      await emitEvent(
        tx,
        team.id,
        "retention.applied",
        { team_id: team.id, applied_at: now.toISOString(), retention_days: team.retention_days, mode: team.retention_mode, counts },
        now,
      );
    });
  }
  return out;
}
