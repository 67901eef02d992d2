/** GET /v1/teams/ (spec §4.2, §2.7): the API key's team as one object, with the users of visible standups. */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { serializeTeamWithUsersV1 } from "@/lib/api/v1/users";
import { getTeamWithUsers } from "@/lib/domain/me";

export const GET = apiRoute("v1", async ({ actor }) => {
  return json(serializeTeamWithUsersV1(await getTeamWithUsers(actor)));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const POST = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
