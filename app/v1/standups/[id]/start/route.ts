/**
 * POST /v1/standups/{id}/start (spec §4.3, compatibility.md): starts today's occurrence now for
 * every member, or only for the given `users` / `user_ids` / `emails`; the body may be absent.
 * Replies 200 with the JSON string "ok".
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { parseId, readJson } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { parseV1StandupStartBody } from "@/lib/api/v1/requests";
import { startStandup } from "@/lib/domain/occurrences";

export const POST = apiRoute<{ id: string }>("v1", async ({ request, actor, params }) => {
  const id = parseId(params.id, "Standup");
  const targets = parseV1StandupStartBody(await readJson(request, { allowEmpty: true }));
  await startStandup(actor, id, targets);
  return json("ok");
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const GET = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
