/**
 * GET /v2/openapi.json: the OpenAPI 3.1 document of the API (lib/openapi/document.ts), public (no
 * API key), JSON with CORS `*`; rate-limited like every API request (`publicAnswer`: the key's
 * quota when one is sent, else the client address's) with the `RateLimit` headers. The document is built once per process (module scope); this static
 * route takes precedence over the `/v2/[[...path]]` catch-all.
 */

import { getOpenApiDocument } from "@/app/v2/openapi.json/routes";
import { API_HEADERS } from "@/lib/api/errors";
import { publicAnswer } from "@/lib/api/handler";
import { methodTable } from "@/lib/api/route";

let body: string | undefined;

/** The OpenAPI document; cacheable for a few minutes (it changes only with a deploy). */
async function serveDocument(): Promise<Response> {
  body ??= JSON.stringify(getOpenApiDocument());
  return new Response(body, { status: 200, headers: { ...API_HEADERS, "Cache-Control": "public, max-age=300" } });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methodTable("v2", { GET: publicAnswer("v2", serveDocument) });
