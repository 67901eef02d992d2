/**
 * POST /v1/standups/{id}/duplicate (spec §4.3): copies a standup the caller can see; fields given
 * in the body override the copy. Confidential standups cannot be duplicated (422).
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseId, readJson } from "@/lib/api/query";
import { parseV1StandupDuplicateBody } from "@/lib/api/v1/requests";
import { serializeStandupV1 } from "@/lib/api/v1/standups";
import { duplicateStandup } from "@/lib/domain/standup-admin";

export const POST = apiRoute<{ id: string }>("v1", async ({ request, actor, params }) => {
  const id = parseId(params.id, "Standup");
  const overrides = parseV1StandupDuplicateBody(await readJson(request, { allowEmpty: true }));
  const row = await duplicateStandup(actor, id, overrides);
  return json(serializeStandupV1(row, { noWaitTime: -1 }));
});

export const OPTIONS = preflight;
