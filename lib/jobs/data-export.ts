/**
 * The `build_data_export` job (issue 45, lib/domain/data-exports.ts): the domain stores the
 * archive, the CSV text of the person's reports is rendered here at the edge (lib/api/csv.ts
 * `toCsv`, the same rendering as the CSV downloads), so the domain never imports the API layer.
 */
import { toCsv } from "@/lib/csv";
import { db } from "@/lib/db";
import { storeDataExport } from "@/lib/domain/data-exports";

/**
 * Builds a pending archive (JSON and reports CSV), marks it ready and offered for 24 hours from
 * `now`. Idempotent: a ready, expired or deleted archive is left alone.
 * @returns whether it built the archive.
 */
export async function buildDataExport(exportId: number, client = db, now = new Date()): Promise<boolean> {
  return storeDataExport(exportId, toCsv, client, now);
}
