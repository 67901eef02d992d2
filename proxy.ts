/**
 * Next.js proxy (the Next 16 successor of middleware), run before every dashboard page and asset
 * route (issue 13), never before the API (`/v1/**`, `/v2/**`, see `config.matcher`):
 *
 * - a possible server-action POST whose Origin is not this host answers 403 (the host is
 *   `Host`, and also `X-Forwarded-Host` when one is sent; with TRUST_PROXY `X-Forwarded-Host`
 *   alone), an unreadable multipart one 400, and next-auth's callback-url cookie is dropped when
 *   next-auth would refuse it (lib/http/page-guards.ts: each was a 500);
 * - dashboard pages get a per-request nonce CSP and the other security headers
 *   (lib/http/security-headers.ts);
 * - an empty or malformed Host / X-Forwarded-Host answers 400 (lib/http/host.ts; the server
 *   preload already answers it under `npm start`);
 * - the sign-in page gets next-auth's CSRF cookie and its token (request header
 *   `x-checkin-csrf-token`), so its form posts to the credentials callback before hydration or
 *   without JavaScript (issue 40 item 8, lib/auth/csrf-cookie.ts).
 *
 * `/api/auth/**` skips the proxy (issue 40 item 10): for a request the proxy runs on, Next.js
 * clones the body for it and reads the whole upload (up to 10 MB kept) before the route runs, so
 * the auth route could not refuse an oversized chunked body quickly; it sets its own headers.
 *
 * Requests no route can serve are refused before Next runs, by the server preload
 * (lib/runtime/next-preload.cjs), for every path: unknown methods (JSON 405 / the v1 404) and
 * malformed percent-encoding (JSON 400 in the version's shape); on API paths the preload hands
 * them to the catch-all routes, which answer them rate-limited (issue 40). API responses carry their own
 * headers (`API_HEADERS` in lib/api/errors.ts: CORS, no-store, nosniff). Why the API skips the
 * proxy (issue 14): one proxy run cost about 45% of an empty route handler's throughput.
 */
import { type NextRequest, NextResponse } from "next/server";
import { clearCookieHeader } from "@/lib/auth/auth-route";
import { csrfCookieName, csrfTokenFor, nextAuthUsesSecureCookies } from "@/lib/auth/csrf-cookie";
import { authSecret, isDevelopment, nextAuthUrlSetting } from "@/lib/env";
import { hasValidHost } from "@/lib/http/host";
import { refuseServerAction, withoutRefusedCookies } from "@/lib/http/page-guards";
import { contentSecurityPolicy, createNonce, isHttps, pageSecurityHeaders } from "@/lib/http/security-headers";

const CSRF_HEADER = "x-checkin-csrf-token";

export async function proxy(request: NextRequest): Promise<NextResponse | Response> {
  if (!hasValidHost(request.headers)) {
    return Response.json({ error: { code: "INVALID_PARAMETER", message: "Missing or malformed Host header" } }, { status: 400 });
  }
  const refused = await refuseServerAction(request);
  if (refused) return refused;

  const https = isHttps(request);
  const nonce = createNonce();
  const csp = contentSecurityPolicy(nonce, { dev: isDevelopment(), https });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  requestHeaders.delete(CSRF_HEADER);
  const cleaned = withoutRefusedCookies(request);
  if (cleaned) requestHeaders.set("cookie", cleaned.cookie);
  const secure = nextAuthUsesSecureCookies(request, nextAuthUrlSetting());
  const csrf =
    request.nextUrl.pathname === "/sign-in" ? csrfTokenFor(request.cookies.get(csrfCookieName(secure))?.value, authSecret()) : null;
  if (csrf) requestHeaders.set(CSRF_HEADER, csrf.token);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  if (csrf?.cookie) response.cookies.set(csrfCookieName(secure), csrf.cookie, { httpOnly: true, sameSite: "lax", path: "/", secure });
  for (const name of cleaned?.refused ?? []) response.headers.append("Set-Cookie", clearCookieHeader(name));
  response.headers.set("Content-Security-Policy", csp);
  for (const [k, v] of Object.entries(pageSecurityHeaders(https))) response.headers.set(k, v);
  return response;
}

export const config = {
  matcher: [
    {
      // Everything but Next's static assets, the API (/v1/..., /v2/...; the bare /v1 and /v2,
      // which no route serves, still pass through it), next-auth's routes (/api/auth/...) and the
      // probes /healthz, /readyz and /metrics (issue 44: cheap, plain JSON/text, no page headers),
      // and the MCP endpoint /mcp (issue 48: an API endpoint with the API's own headers, body limit
      // and key authentication, lib/mcp/http.ts; no cookies, so no server-action or CSRF checks).
      source: "/((?!_next/static|_next/image|favicon.ico|v1/|v2/|api/auth/|healthz|readyz|metrics|mcp$).*)",
    },
  ],
};
