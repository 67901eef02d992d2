/** GET /v1/polls/{id} (spec §4.3): a poll of the team the caller takes part in or created; else 404. */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseId } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { serializePollV1 } from "@/lib/api/v1/polls";
import { getPollSettings } from "@/lib/domain/polls";

export const GET = apiRoute<{ id: string }>("v1", async ({ actor, params }) => {
  const row = await getPollSettings(actor, parseId(params.id, "Poll"));
  return json(serializePollV1(row));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const POST = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
