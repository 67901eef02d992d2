/**
 * GET /v2/openapi.json: the OpenAPI 3.1 document of the API (lib/openapi/document.ts), public (no
 * API key), JSON with CORS `*`. The document is built once per process (module scope); this static
 * route takes precedence over the `/v2/[[...path]]` catch-all.
 */
import { API_HEADERS } from "@/lib/api/errors";
import { methodNotAllowed, preflight } from "@/lib/api/handler";
import { getOpenApiDocument } from "@/lib/openapi/document";

let body: string | undefined;

/** The OpenAPI document; cacheable for a few minutes (it changes only with a deploy). */
export async function GET(): Promise<Response> {
  body ??= JSON.stringify(getOpenApiDocument());
  return new Response(body, { status: 200, headers: { ...API_HEADERS, "Cache-Control": "public, max-age=300" } });
}

/** Methods this path does not serve: 405 with the v2 error body. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = preflight;
