/**
 * Next.js proxy (the Next 16 successor of middleware), run before every dashboard page and asset
 * route (issue 13), never before the API (`/v1/**`, `/v2/**`, see `config.matcher`):
 *
 * - a server-action POST (`Next-Action` header) whose Origin is not this host answers 403 (the
 *   host is `X-Forwarded-Host` only with TRUST_PROXY, else `Host`);
 * - dashboard pages get a per-request nonce CSP and the other security headers
 *   (lib/http/security-headers.ts).
 *
 * Requests no route can serve are answered before Next runs, by the server preload
 * (lib/runtime/next-preload.cjs), for every path: unknown methods (JSON 405 / the v1 404) and
 * malformed percent-encoding (JSON 400 in the version's shape). API responses carry their own
 * headers (`API_HEADERS` in lib/api/errors.ts: CORS, no-store, nosniff). Why the API skips the
 * proxy (issue 14): one proxy run cost about 45% of an empty route handler's throughput.
 */
import { type NextRequest, NextResponse } from "next/server";
import { isDevelopment, limitSettings } from "@/lib/env";
import { contentSecurityPolicy, createNonce, isHttps, pageSecurityHeaders } from "@/lib/http/security-headers";

function sameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  // X-Forwarded-Host only from your own reverse proxy (TRUST_PROXY): a client may send anything.
  const host = (limitSettings().trustProxy ? request.headers.get("x-forwarded-host") : null) ?? request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export function proxy(request: NextRequest): NextResponse | Response {
  if (request.method === "POST" && request.headers.has("next-action") && !sameOrigin(request)) {
    return new Response("Forbidden: cross-origin server action request", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
    });
  }

  const https = isHttps(request);
  const nonce = createNonce();
  const csp = contentSecurityPolicy(nonce, { dev: isDevelopment(), https });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  for (const [k, v] of Object.entries(pageSecurityHeaders(https))) response.headers.set(k, v);
  return response;
}

export const config = {
  matcher: [
    {
      // Everything but Next's static assets and the API (/v1/..., /v2/...; the bare /v1 and /v2,
      // which no route serves, still pass through it).
      source: "/((?!_next/static|_next/image|favicon.ico|v1/|v2/).*)",
    },
  ],
};
