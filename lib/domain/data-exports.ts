/**
 * "My data" archives built by a job (issue 45): _Profile → My data_ asks for one
 * (`requestDataExport`: a `data_exports` row, status `pending`, and the `build_data_export` job in
 * the same transaction); the job (`buildDataExport`) stores the archive of lib/domain/my-data.ts
 * as JSON and the person's reports as CSV, status `ready`, offered until `expires_at` = ready + 24
 * hours; `cleanupDataExports` (the hourly cleanup job) deletes archives past that time. The person
 * downloads theirs (`readDataExport`, GET /exports/my-data?export_id=N); an admin may ask for
 * someone's, audited as `user.export`, and download it. Erasing a person deletes their archives.
 */

import { toCsv } from "@/lib/csv";
import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { recordAudit } from "@/lib/domain/audit";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { loadPersonData, reportsCsvRows } from "@/lib/domain/my-data";
import type { Prisma } from "@/lib/generated/prisma/client";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** How long a ready archive is offered (milliseconds): 24 hours. */
export const DATA_EXPORT_TTL_MS = 24 * 60 * 60 * 1000;
/** The job that builds an archive. */
export const BUILD_DATA_EXPORT_TASK = "build_data_export";

/** The state of one archive as the Profile page shows it. */
export type DataExportStatus = { id: number; status: "pending" | "ready"; createdAt: Date; readyAt: Date | null; expiresAt: Date };

/**
 * Asks for the archive of `userId` (default: the actor); an unexpired pending one of theirs is
 * reused. @returns its status. @throws ForbiddenError when a non-admin asks for someone else;
 * NotFoundError for a person of another team.
 */
export async function requestDataExport(
  actor: Actor,
  input: { userId?: number } = {},
  tx?: Tx,
  now = new Date(),
): Promise<DataExportStatus> {
  const userId = input.userId ?? actor.userId;
  if (userId !== actor.userId && !actor.isAdmin) throw new ForbiddenError("Only team admins can export another person's data");
  return inTransaction(tx, async (t) => {
    const person = await t.user.findFirst({ where: { id: userId, team_id: actor.teamId }, select: { id: true } });
    if (!person) throw new NotFoundError("User");
    const pending = await t.dataExport.findFirst({
      where: { user_id: userId, requested_by_id: actor.userId, status: "pending", expires_at: { gt: now } },
      orderBy: { id: "desc" },
    });
    const row =
      pending ??
      (await t.dataExport.create({
        data: {
          team_id: actor.teamId,
          user_id: userId,
          requested_by_id: actor.userId,
          created_at: now,
          // A pending archive not built within a day is dropped by the cleanup like an expired one.
          expires_at: new Date(now.getTime() + DATA_EXPORT_TTL_MS),
        },
      }));
    if (!pending) {
      await enqueueJob(t, BUILD_DATA_EXPORT_TASK, { exportId: row.id }, { jobKey: `data_export:${row.id}`, maxAttempts: 5 });
      if (userId !== actor.userId) {
        await recordAudit(t, { teamId: actor.teamId, actorId: actor.userId, action: "user.export", target: `user:${userId}` });
      }
    }
    return statusOf(row);
  });
}

function statusOf(row: { id: number; status: string; created_at: Date; ready_at: Date | null; expires_at: Date }): DataExportStatus {
  return {
    id: row.id,
    status: row.status === "ready" ? "ready" : "pending",
    createdAt: row.created_at,
    readyAt: row.ready_at,
    expiresAt: row.expires_at,
  };
}

/**
 * The `build_data_export` job: builds a pending archive (JSON and reports CSV), marks it ready and
 * offered for 24 hours from now. Idempotent: a ready, expired or deleted archive is left alone.
 * @returns whether it built the archive.
 */
export async function buildDataExport(exportId: number, client = db, now = new Date()): Promise<boolean> {
  const row = await client.dataExport.findUnique({ where: { id: exportId } });
  if (row?.status !== "pending") return false;
  const data = await loadPersonData(client, row.team_id, row.user_id);
  const archive = JSON.parse(JSON.stringify(data)) as Prisma.InputJsonValue;
  const built = await client.dataExport.updateMany({
    where: { id: exportId, status: "pending" },
    data: {
      status: "ready",
      archive,
      reports_csv: toCsv(reportsCsvRows(data)),
      ready_at: now,
      expires_at: new Date(now.getTime() + DATA_EXPORT_TTL_MS),
    },
  });
  return built.count > 0;
}

/** The actor's latest archive of themselves that has not expired (Profile → My data), or null. */
export async function latestDataExport(actor: Actor, client: Tx = db, now = new Date()): Promise<DataExportStatus | null> {
  const row = await client.dataExport.findFirst({
    where: { team_id: actor.teamId, user_id: actor.userId, requested_by_id: actor.userId, expires_at: { gt: now } },
    orderBy: { id: "desc" },
  });
  return row ? statusOf(row) : null;
}

/**
 * A ready, unexpired archive the actor may download: their own, or one they (an admin) asked for.
 * @returns the JSON text or the reports CSV. @throws NotFoundError otherwise (also while pending).
 */
export async function readDataExport(
  actor: Actor,
  input: { exportId: number; format: "json" | "csv" },
  client: Tx = db,
  now = new Date(),
): Promise<{ userId: number; body: string }> {
  const row = await client.dataExport.findFirst({
    where: {
      id: input.exportId,
      team_id: actor.teamId,
      status: "ready",
      expires_at: { gt: now },
      OR: [{ user_id: actor.userId }, ...(actor.isAdmin ? [{ requested_by_id: actor.userId }] : [])],
    },
  });
  if (!row) throw new NotFoundError("Export");
  return { userId: row.user_id, body: input.format === "csv" ? (row.reports_csv ?? "") : JSON.stringify(row.archive, null, 2) };
}

/** Deletes archives past `expires_at` (hourly cleanup). @returns how many. */
export async function cleanupDataExports(client = db, now = new Date()): Promise<number> {
  return (await client.dataExport.deleteMany({ where: { expires_at: { lte: now } } })).count;
}
