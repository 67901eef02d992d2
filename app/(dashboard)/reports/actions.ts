"use server";

import { revalidatePath } from "next/cache";
import { fetchReportsPage, type ReportFilters, type ReportsPage } from "@/components/reports/fetch-reports";
import { getActor } from "@/lib/auth/session";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { restoreReport } from "@/lib/domain/report-restore";
import { discardReport } from "@/lib/domain/report-writes";

/** Server action behind "Load more" (react-query infinite query). */
export async function loadReportsAction(filters: ReportFilters, cursor: string | null): Promise<ReportsPage> {
  const actor = await getActor();
  return fetchReportsPage(actor, filters, cursor);
}

/** Result of a delete or undo: an error written for people, or nothing. */
export type ReportActionResult = { error?: string };

/**
 * Runs one write on a report of the signed-in person: a domain error becomes `{ error: failure }`
 * (other errors propagate); on success the reports page is revalidated and the result is `{}`.
 */
async function reportWrite(write: (actor: Actor) => Promise<unknown>, failure: string): Promise<ReportActionResult> {
  const actor = await getActor();
  try {
    await write(actor);
  } catch (err) {
    if (err instanceof DomainError) return { error: failure };
    throw err;
  }
  revalidatePath("/reports");
  return {};
}

/** Deletes the viewer's own report (same domain call as DELETE /v2/reports/{id}); undo is possible for a while. */
export async function deleteReportAction(reportId: number): Promise<ReportActionResult> {
  return reportWrite(
    (actor) => discardReport(actor, { reportId }),
    "This report could not be deleted: it is not yours or no longer exists.",
  );
}

/** Undoes a delete of the viewer's own report (within the undo window). */
export async function restoreReportAction(reportId: number): Promise<ReportActionResult> {
  return reportWrite((actor) => restoreReport(actor, { reportId }), "Too late to undo: the report can no longer be restored.");
}
