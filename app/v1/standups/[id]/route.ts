/**
 * /v1/standups/{id} (spec §4.3): GET (participant, creator or team admin), PATCH (only the
 * properties present change), PUT (replace the configuration), DELETE (archive; answers the
 * standup as it was). Edits need the creator or a team admin (else 401); invisible → 404.
 */
import { v1IdPath } from "@/lib/api/query";
import { apiPath, readRouteV1 } from "@/lib/api/route";
import { parseV1StandupPatchBody, parseV1StandupPutBody, v1StandupCreateBody, zStandupPartial } from "@/lib/api/v1/standup-requests";
import { serializeStandupV1, standupV1Schema, standupWriteV1 } from "@/lib/api/v1/standups";
import { archiveStandup, replaceStandup, updateStandup } from "@/lib/domain/standup-writes";
import { getStandupSettings } from "@/lib/domain/standups";

const EDITORS = "Needs the creator or a team admin (else 401).";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/standups/{id}", {
  GET: readRouteV1(
    {
      tag: "Legacy standups (v1)",
      id: "getStandupV1",
      summary: "Get a standup the caller participates in or created",
      path: v1IdPath("Standup"),
    },
    { description: "The v1 standup.", schema: standupV1Schema },
    { load: ({ actor, id }) => getStandupSettings(actor, id), serialize: (row) => serializeStandupV1(row) },
  ),
  PATCH: standupWriteV1(
    {
      id: "updateStandupV1",
      summary: "Change the given properties of a standup",
      description: `Only properties present are changed. ${EDITORS}`,
    },
    { body: { schema: zStandupPartial }, response: "The v1 standup.", errors: [400, 404] },
    (actor, id, body) => updateStandup(actor, id, parseV1StandupPatchBody(body)),
  ),
  PUT: standupWriteV1(
    {
      id: "replaceStandupV1",
      summary: "Replace the configuration of a standup",
      description: `\`questions\` default to three standard questions when omitted. ${EDITORS}`,
    },
    { body: { schema: v1StandupCreateBody }, response: "The v1 standup.", errors: [400, 404] },
    (actor, id, body) => replaceStandup(actor, id, parseV1StandupPutBody(body)),
  ),
  DELETE: standupWriteV1(
    { id: "deleteStandupV1", summary: "Delete (archive) a standup", description: EDITORS },
    { response: "The deleted v1 standup.", errors: [404] },
    (actor, id) => archiveStandup(actor, id),
  ),
});
