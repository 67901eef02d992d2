/**
 * Records a restart of a supervised process in `service_events` (issue 40; shown by Settings →
 * System through lib/domain/service-processes.ts).
 */
import { db } from "@/lib/db";

/**
 * Inserts one restart: `process` "web" or "worker", `reason` as the supervisor logged it, the PID
 * that died. Never throws: a restart during a database outage is only logged.
 */
export async function recordServiceRestart(
  process: "web" | "worker",
  reason: string,
  pid: number | undefined,
  log: (line: string) => void,
): Promise<void> {
  await db.serviceEvent.create({ data: { process, reason, pid: pid ?? null } }).catch((err: unknown) => {
    log(`Could not record the ${process} restart: ${(err as Error)?.message ?? err}`);
  });
}
