/**
 * Catch-all for unknown paths under /v1 (issue #2): a JSON 404 for every method, with the v1 error
 * shape, before any authentication (there is nothing to protect). Known routes take precedence.
 */
import { preflight } from "@/lib/api/handler";
import { notFoundV1 } from "@/lib/api/v1/not-found";

export const GET = notFoundV1;
export const HEAD = notFoundV1;
export const POST = notFoundV1;
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
