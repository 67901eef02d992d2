/**
 * POST /v1/standups/{id}/duplicate (spec §4.3): copies a standup the caller can see; fields given
 * in the body override the copy. Confidential standups cannot be duplicated (422).
 */
import { json } from "@/lib/api/errors";
import { readJson, v1IdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { parseV1StandupDuplicateBody, zStandupPartial } from "@/lib/api/v1/standup-requests";
import { serializeStandupV1, standupV1Schema } from "@/lib/api/v1/standups";
import { duplicateStandup } from "@/lib/domain/standup-writes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/standups/{id}/duplicate", {
  POST: served(
    {
      tag: "Legacy standups (v1)",
      id: "duplicateStandupV1",
      summary: "Duplicate a standup",
      description: "Fields given override the copied configuration. Confidential standups cannot be duplicated (422).",
      path: v1IdPath("Standup"),
      body: { schema: zStandupPartial, required: false },
      response: { description: "The new v1 standup.", schema: standupV1Schema },
      errors: [400, 404, 422],
    },
    async ({ request, actor, id }) => {
      const overrides = parseV1StandupDuplicateBody(await readJson(request, { allowEmpty: true }));
      const row = await duplicateStandup(actor, id, overrides);
      return json(serializeStandupV1(row, { noWaitTime: -1 }));
    },
  ),
});
