/** GET /v2/standups (spec §4.2): standups visible to the caller, filters of §4.1, list envelope. */
import { listEnvelope, pageOf } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed, preflight } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import { checkinCursorPosition, checkinListQuerySchema, serializeCheckinV2, toCheckinListFilters } from "@/lib/api/v2/standups";
import { listStandups } from "@/lib/domain/standups";

export const GET = apiRoute("v2", async ({ url, actor }) => {
  const query = parseWith(checkinListQuerySchema, queryObject(url));
  const { filters, binding } = toCheckinListFilters(query, "v2.standups");
  const rows = await listStandups(actor, filters);
  return json(listEnvelope(pageOf(rows, filters.limit), (row) => serializeCheckinV2(row, query.include), checkinCursorPosition, binding));
});

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET", "POST"]);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;

export { POST } from "./post";
