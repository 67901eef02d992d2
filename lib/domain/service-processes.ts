/**
 * The service's own processes as Settings → System shows them (issue 40): restarts of the web
 * server and the job worker by their supervisor (table `service_events`, written by
 * lib/runtime/service-events.ts) and the job workers alive now (`worker_heartbeats`, written by
 * lib/jobs/heartbeat.ts). Instance-wide data, not a team's: team admins only.
 */

import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ForbiddenError } from "@/lib/domain/errors";

/** The supervised processes, in display order. */
export const SERVICE_PROCESSES = ["web", "worker"] as const;

export type ServiceProcessSummary = {
  process: (typeof SERVICE_PROCESSES)[number];
  /** Restarts in the last 24 hours. */
  restarts24h: number;
  /** The last restart ever recorded, or null. */
  last: { at: Date; reason: string } | null;
};

export type LiveWorker = { workerId: string; pid: number; host: string; startedAt: Date; beatAt: Date };

/**
 * Per supervised process: restarts in the last 24 h and the last restart with its reason; and the
 * job workers whose heartbeat is recent (last 60 s).
 * @throws ForbiddenError when `actor` is not a team admin.
 */
export async function serviceProcessStatus(
  actor: Actor,
  tx: Tx = db,
): Promise<{ processes: ServiceProcessSummary[]; workers: LiveWorker[] }> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can see the service's processes.");
  const rows = await tx.$queryRaw<Array<{ process: string; restarts24h: number; at: Date | null; reason: string | null }>>`
    SELECT p.process,
           (SELECT count(*)::int FROM service_events e WHERE e.process = p.process AND e.at > now() - interval '24 hours') AS "restarts24h",
           l.at, l.reason
    FROM unnest(${[...SERVICE_PROCESSES]}::text[]) AS p(process)
    LEFT JOIN LATERAL (SELECT at, reason FROM service_events e WHERE e.process = p.process ORDER BY at DESC LIMIT 1) l ON true`;
  const workers = await tx.workerHeartbeat.findMany({
    where: { beat_at: { gt: new Date(Date.now() - 60_000) } },
    orderBy: { started_at: "asc" },
  });
  return {
    processes: SERVICE_PROCESSES.map((name) => {
      const r = rows.find((x) => x.process === name);
      return { process: name, restarts24h: r?.restarts24h ?? 0, last: r?.at ? { at: r.at, reason: r.reason ?? "" } : null };
    }),
    workers: workers.map((w) => ({ workerId: w.worker_id, pid: w.pid, host: w.host, startedAt: w.started_at, beatAt: w.beat_at })),
  };
}
