/**
 * GET /v1/standups/ (spec §4.3): the caller's standups as a bare array of v1 standups
 * (`admin=true` lists every standup of the team for team admins).
 * POST /v1/standups/: creates a standup through the shared domain (`createStandup`, the same as
 * POST /v2/standups) and answers the v1 standup (wait_time -1 for "no automatic asking").
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseWith, queryObject, readJson } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { parseV1StandupCreateBody } from "@/lib/api/v1/requests";
import { serializeStandupV1, v1StandupListQuerySchema } from "@/lib/api/v1/standups";
import { createStandupFromConfig } from "@/lib/domain/standup-writes";
import { listStandupSettings } from "@/lib/domain/standups";

export const GET = apiRoute("v1", async ({ url, actor }) => {
  const { admin } = parseWith(v1StandupListQuerySchema, queryObject(url));
  const rows = await listStandupSettings(actor, { drafts: true, teamWide: admin });
  return json(rows.map((row) => serializeStandupV1(row)));
});

export const POST = apiRoute("v1", async ({ request, actor }) => {
  const input = parseV1StandupCreateBody(await readJson(request));
  const row = await createStandupFromConfig(actor, input);
  return json(serializeStandupV1(row, { noWaitTime: -1 }));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
