/**
 * GET /exports/my-data — everything the service holds about the caller (issue 45, "My data";
 * lib/domain/my-data.ts), as a JSON download; `format=csv` gives their reports as CSV (one row per
 * answer). With `export_id`, the archive the `build_data_export` job prepared (Profile → My data,
 * offered 24 hours; lib/domain/data-exports.ts); without it, built on request (API clients). A team
 * admin may add `user_id` (numeric) to export someone else (audited). Dashboard session or API key.
 */
import { csvRoute } from "@/lib/api/csv";
import { toCsv } from "@/lib/csv";
import { readDataExport } from "@/lib/domain/data-exports";
import { InvalidParameterError } from "@/lib/domain/errors";
import { exportPersonData, reportsCsvRows } from "@/lib/domain/my-data";

export const dynamic = "force-dynamic";

const ID = /^[1-9]\d{0,9}$/;

export const GET = csvRoute(async ({ url, actor }) => {
  const rawUser = url.searchParams.get("user_id");
  if (rawUser !== null && !ID.test(rawUser)) throw new InvalidParameterError("user_id must be a numeric user id");
  const rawExport = url.searchParams.get("export_id");
  if (rawExport !== null && !ID.test(rawExport)) throw new InvalidParameterError("export_id must be a numeric id");
  const format = url.searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "csv") throw new InvalidParameterError("format must be json or csv");
  const download = (userId: number, body: string) => {
    const name = `my-data-user-${userId}-${new Date().toISOString().slice(0, 10)}`;
    return format === "csv"
      ? new Response(body, {
          headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}-reports.csv"` },
        })
      : new Response(body, {
          headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="${name}.json"` },
        });
  };
  if (rawExport !== null) {
    const prepared = await readDataExport(actor, { exportId: Number(rawExport), format });
    return download(prepared.userId, prepared.body);
  }
  const userId = rawUser === null ? actor.userId : Number(rawUser);
  const data = await exportPersonData(actor, { userId });
  return download(userId, format === "csv" ? toCsv(reportsCsvRows(data)) : JSON.stringify(data, null, 2));
});
