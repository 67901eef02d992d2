/**
 * /v1/standups/{id} (spec §4.3): GET (participant, creator or team admin), PATCH (only the
 * properties present change), PUT (replace the configuration), DELETE (archive; answers the
 * standup as it was). Edits need the creator or a team admin (else 401); invisible → 404.
 */
import { json } from "@/lib/api/errors";
import { readJson, v1IdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { parseV1StandupPatchBody, parseV1StandupPutBody, v1StandupCreateBody, zStandupPartial } from "@/lib/api/v1/standup-requests";
import { serializeStandupV1, standupV1Schema } from "@/lib/api/v1/standups";
import { archiveStandup, replaceStandup, updateStandup } from "@/lib/domain/standup-writes";
import { getStandupSettings } from "@/lib/domain/standups";

const tag = "Legacy standups (v1)";
const path = v1IdPath("Standup");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/standups/{id}", {
  GET: served(
    {
      tag,
      id: "getStandupV1",
      summary: "Get a standup the caller participates in or created",
      path,
      response: { description: "The v1 standup.", schema: standupV1Schema },
      errors: [404],
    },
    async ({ actor, id }) => {
      const row = await getStandupSettings(actor, id);
      return json(serializeStandupV1(row));
    },
  ),
  PATCH: served(
    {
      tag,
      id: "updateStandupV1",
      summary: "Change the given properties of a standup",
      description: "Only properties present are changed. Needs the creator or a team admin (else 401).",
      path,
      body: { schema: zStandupPartial },
      response: { description: "The v1 standup.", schema: standupV1Schema },
      errors: [400, 404],
    },
    async ({ request, actor, id }) => {
      const row = await updateStandup(actor, id, parseV1StandupPatchBody(await readJson(request)));
      return json(serializeStandupV1(row, { noWaitTime: -1 }));
    },
  ),
  PUT: served(
    {
      tag,
      id: "replaceStandupV1",
      summary: "Replace the configuration of a standup",
      description: "`questions` default to three standard questions when omitted. Needs the creator or a team admin (else 401).",
      path,
      body: { schema: v1StandupCreateBody },
      response: { description: "The v1 standup.", schema: standupV1Schema },
      errors: [400, 404],
    },
    async ({ request, actor, id }) => {
      const row = await replaceStandup(actor, id, parseV1StandupPutBody(await readJson(request)));
      return json(serializeStandupV1(row, { noWaitTime: -1 }));
    },
  ),
  DELETE: served(
    {
      tag,
      id: "deleteStandupV1",
      summary: "Delete (archive) a standup",
      description: "Needs the creator or a team admin (else 401).",
      path,
      response: { description: "The deleted v1 standup.", schema: standupV1Schema },
      errors: [404],
    },
    async ({ actor, id }) => {
      const row = await archiveStandup(actor, id);
      return json(serializeStandupV1(row, { noWaitTime: -1 }));
    },
  ),
});
