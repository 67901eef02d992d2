/**
 * GET /v1/me/standups (spec §4.2): alias of GET /v1/standups/ — a bare array of v1 standups the
 * caller takes part in or created; `admin=true` lists every standup of the team for team admins.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { serializeStandupV1, v1StandupListQuerySchema } from "@/lib/api/v1/standups";
import { listStandupSettings } from "@/lib/domain/standups";

export const GET = apiRoute("v1", async ({ url, actor }) => {
  const { admin } = parseWith(v1StandupListQuerySchema, queryObject(url));
  const rows = await listStandupSettings(actor, { drafts: true, teamWide: admin });
  return json(rows.map((row) => serializeStandupV1(row)));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const POST = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
