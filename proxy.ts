/**
 * Next.js proxy (the Next 16 successor of middleware), run before every route (issue 13):
 *
 * - a path whose percent-encoding is malformed (`/v2/standups/%FF`) answers 400 in the version's
 *   error shape (JSON everywhere) instead of a 500 from Next's decoder;
 * - a method Next.js route handlers cannot serve (TRACE, CONNECT, anything unknown) answers JSON
 *   405 (v2 and pages, with `Allow`) or the v1 404 `{"error": "Not found"}`, never a stack trace;
 * - a server-action POST (`Next-Action` header) whose Origin is not this host answers 403;
 * - dashboard pages get a per-request nonce CSP and the other security headers
 *   (lib/http/security-headers.ts); API responses get `nosniff` (their CORS headers are set by the
 *   routes).
 */
import { type NextRequest, NextResponse } from "next/server";
import { errorResponse } from "@/lib/api/errors";
import { isDevelopment } from "@/lib/env";
import { contentSecurityPolicy, createNonce, isHttps, pageSecurityHeaders } from "@/lib/http/security-headers";

/** Methods Next.js route handlers can export. */
const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

function apiVersionOf(pathname: string): "v1" | "v2" | null {
  if (pathname === "/v1" || pathname.startsWith("/v1/")) return "v1";
  if (pathname === "/v2" || pathname.startsWith("/v2/")) return "v2";
  return null;
}

/** True when every %XX of the raw path decodes to valid UTF-8. */
function decodesCleanly(rawPath: string): boolean {
  try {
    decodeURIComponent(rawPath);
    return true;
  } catch {
    return false;
  }
}

/** The raw (still percent-encoded) path of the request. */
function rawPathOf(request: NextRequest): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(request.url);
  return m ? m[1] || "/" : request.nextUrl.pathname;
}

function sameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export function proxy(request: NextRequest): NextResponse | Response {
  const rawPath = rawPathOf(request);
  const version = apiVersionOf(rawPath);
  const method = request.method.toUpperCase();

  if (!decodesCleanly(rawPath)) {
    return version === "v1"
      ? errorResponse("v1", 400, "INVALID_PARAMETER", "Malformed percent-encoding in the path")
      : errorResponse("v2", 400, "INVALID_PARAMETER", "Malformed percent-encoding in the path");
  }
  if (!SERVED_METHODS.has(method)) {
    if (version === "v1") return errorResponse("v1", 404, "NOT_FOUND", "Not found");
    return errorResponse("v2", 405, "METHOD_NOT_ALLOWED", `Method ${method.slice(0, 20)} is not supported (allowed: ${ALLOW})`, {
      Allow: ALLOW,
    });
  }
  if (version) {
    const response = NextResponse.next();
    response.headers.set("X-Content-Type-Options", "nosniff");
    return response;
  }
  if (method === "POST" && request.headers.has("next-action") && !sameOrigin(request)) {
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
      source: "/((?!_next/static|_next/image|favicon.ico).*)",
    },
  ],
};
