/** GET /v1/me (spec §4.2, §2.7): `{user, team}` of the API key. */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { serializeCurrentUserV1, serializeTeamV1 } from "@/lib/api/v1/users";
import { getMe } from "@/lib/domain/me";

export const GET = apiRoute("v1", async ({ actor }) => {
  const { user, team } = await getMe(actor);
  return json({ user: serializeCurrentUserV1(user), team: serializeTeamV1(team) });
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const POST = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
