/**
 * /v1/standups/{id} (spec §4.3): GET (participant, creator or team admin), PATCH (only the
 * properties present change), PUT (replace the configuration), DELETE (archive; answers the
 * standup as it was). Edits need the creator or a team admin (else 401); invisible → 404.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseId, readJson } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { parseV1StandupPatchBody, parseV1StandupPutBody } from "@/lib/api/v1/requests";
import { serializeStandupV1 } from "@/lib/api/v1/standups";
import { archiveStandup, replaceStandup, updateStandup } from "@/lib/domain/standup-writes";
import { getStandupSettings } from "@/lib/domain/standups";

type Params = { id: string };

export const GET = apiRoute<Params>("v1", async ({ actor, params }) => {
  const row = await getStandupSettings(actor, parseId(params.id, "Standup"));
  return json(serializeStandupV1(row));
});

export const PATCH = apiRoute<Params>("v1", async ({ request, actor, params }) => {
  const id = parseId(params.id, "Standup");
  const row = await updateStandup(actor, id, parseV1StandupPatchBody(await readJson(request)));
  return json(serializeStandupV1(row, { noWaitTime: -1 }));
});

export const PUT = apiRoute<Params>("v1", async ({ request, actor, params }) => {
  const id = parseId(params.id, "Standup");
  const row = await replaceStandup(actor, id, parseV1StandupPutBody(await readJson(request)));
  return json(serializeStandupV1(row, { noWaitTime: -1 }));
});

export const DELETE = apiRoute<Params>("v1", async ({ actor, params }) => {
  const row = await archiveStandup(actor, parseId(params.id, "Standup"));
  return json(serializeStandupV1(row, { noWaitTime: -1 }));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const POST = notFoundV1;
export const OPTIONS = preflight;
