/**
 * The v1 answer for a path or method the legacy API does not have: 404 `{"error": "Not found"}`
 * with the API headers, before any authentication (there is nothing to protect).
 * compatibility.md: v1 error bodies are `{"error": "<message>"}` with 400, 401, 404 or 422 only,
 * so a known path called with a method it does not serve answers this too, instead of Next's
 * bodiless 405. Route files export it under each method they do not implement.
 */
import { errorResponse } from "@/lib/api/errors";

/** 404 `{"error": "Not found"}` for an unknown v1 path or method. */
export async function notFoundV1(): Promise<Response> {
  return errorResponse("v1", 404, "NOT_FOUND", "Not found");
}
