/**
 * Catch-all for unknown paths under /v1 (issue #2): a JSON 404 for every method, with the v1 error
 * shape, before any authentication. Known routes take precedence.
 */
import { unknownPath } from "@/lib/api/route";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPath("v1");
