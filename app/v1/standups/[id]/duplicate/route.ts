/**
 * POST /v1/standups/{id}/duplicate (spec §4.3): copies a standup the caller can see; fields given
 * in the body override the copy. Confidential standups cannot be duplicated (422).
 */
import { apiPath } from "@/lib/api/route";
import { parseV1StandupDuplicateBody, zStandupPartial } from "@/lib/api/v1/standup-requests";
import { standupWriteV1 } from "@/lib/api/v1/standups";
import { duplicateStandup } from "@/lib/domain/standup-writes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/standups/{id}/duplicate", {
  POST: standupWriteV1(
    {
      id: "duplicateStandupV1",
      summary: "Duplicate a standup",
      description: "Fields given override the copied configuration. Confidential standups cannot be duplicated (422).",
    },
    { body: { schema: zStandupPartial, required: false }, response: "The new v1 standup.", errors: [400, 404, 422] },
    // Legacy contract: the v1 copy runs at once (its body usually sets a new schedule and members);
    // the dashboard's Duplicate starts paused (lib/domain/standup-writes.ts).
    (actor, id, body) => duplicateStandup(actor, id, parseV1StandupDuplicateBody(body), { state: "active" }),
  ),
});
