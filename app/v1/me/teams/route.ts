/** GET /v1/me/teams (spec §4.2, §2.7): `{teams: [...]}`, currently only the API key's team. */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { serializeMyTeamV1 } from "@/lib/api/v1/users";
import { listMyTeams } from "@/lib/domain/me";

export const GET = apiRoute("v1", async ({ actor }) => {
  const teams = await listMyTeams(actor);
  return json({ teams: teams.map(serializeMyTeamV1) });
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const POST = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
