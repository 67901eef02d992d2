/**
 * GET /exports/my-data — everything the service holds about the caller (issue 45, "My data";
 * lib/domain/my-data.ts), as a JSON download; `format=csv` gives their reports as CSV (one row per
 * answer). A team admin may add `user_id` (numeric) to export someone else (audited). Dashboard
 * session or API key.
 */
import { csvRoute, toCsv } from "@/lib/api/csv";
import { InvalidParameterError } from "@/lib/domain/errors";
import { exportPersonData, reportsCsvRows } from "@/lib/domain/my-data";

export const dynamic = "force-dynamic";

export const GET = csvRoute(async ({ url, actor }) => {
  const rawUser = url.searchParams.get("user_id");
  if (rawUser !== null && !/^[1-9]\d{0,9}$/.test(rawUser)) throw new InvalidParameterError("user_id must be a numeric user id");
  const format = url.searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "csv") throw new InvalidParameterError("format must be json or csv");
  const userId = rawUser === null ? actor.userId : Number(rawUser);
  const data = await exportPersonData(actor, { userId });
  const name = `my-data-user-${userId}-${new Date().toISOString().slice(0, 10)}`;
  if (format === "csv") {
    return new Response(toCsv(reportsCsvRows(data)), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}-reports.csv"` },
    });
  }
  return new Response(JSON.stringify(data, null, 2), {
    headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="${name}.json"` },
  });
});
