/**
 * Optional catch-all for /v2 itself and unknown paths under it (issue #2): a JSON 404 for every method, with the v2 error
 * shape, before any authentication (there is nothing to protect). Known routes take precedence.
 */
import { errorResponse } from "@/lib/api/errors";
import { preflight } from "@/lib/api/handler";

/** The JSON 404 every method answers. */
async function notFound(): Promise<Response> {
  return errorResponse("v2", 404, "NOT_FOUND", "No such endpoint");
}

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = preflight;
