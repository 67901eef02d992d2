/**
 * Optional catch-all for /v2 itself and unknown paths under it (issue #2): a JSON 404 for every
 * method, with the v2 error shape, before any authentication. Known routes take precedence.
 */
import { unknownPath } from "@/lib/api/route";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPath("v2");
