/** GET /v2/reports/{reportId} (spec §4.2): one readable report as `{data}`; 404 otherwise. */
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseId } from "@/lib/api/query";
import { serializeReportV2 } from "@/lib/api/v2/reports";
import { getReport } from "@/lib/domain/reports";

export const GET = apiRoute<{ reportId: string }>("v2", async ({ actor, params }) => {
  const row = await getReport(actor, parseId(params.reportId, "Report"));
  return json({ data: serializeReportV2(row) });
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET", "PATCH", "DELETE"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const OPTIONS = preflight;

export { DELETE, PATCH } from "./write";
