/**
 * POST /v1/standups/{id}/duplicate (spec §4.3): copies a standup the caller can see; fields given
 * in the body override the copy. Confidential standups cannot be duplicated (422).
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseId, readJson } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { parseV1StandupDuplicateBody } from "@/lib/api/v1/requests";
import { serializeStandupV1 } from "@/lib/api/v1/standups";
import { duplicateStandup } from "@/lib/domain/standup-writes";

export const POST = apiRoute<{ id: string }>("v1", async ({ request, actor, params }) => {
  const id = parseId(params.id, "Standup");
  const overrides = parseV1StandupDuplicateBody(await readJson(request, { allowEmpty: true }));
  const row = await duplicateStandup(actor, id, overrides);
  return json(serializeStandupV1(row, { noWaitTime: -1 }));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const GET = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
