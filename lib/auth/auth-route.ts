/**
 * What the next-auth route (app/api/auth/[...nextauth]/route.ts) checks before next-auth 4 sees a
 * request (issue 40 items 9 and 10): next-auth answers 500 (with a multi-line error log) for
 * requests that are a client's mistake, and reads any body in full.
 *
 * - a `callbackUrl` query parameter or callback-url cookie next-auth would refuse
 *   (`core/lib/assert.js`: neither a path nor an http(s) URL, e.g. `foo`, `%FF`, `a%20b`): 400;
 *   the cookie is cleared in the same answer so the next attempt works;
 * - `GET` of the credentials / one-time-link callbacks, which only take a POST: 405 + `Allow`;
 * - `POST /api/auth/_log` (next-auth's client error log, written into the server log once a
 *   `logger` is configured, as lib/auth/next-auth.ts does): 204, nothing written;
 * - an empty or malformed Host / X-Forwarded-Host (next-auth builds its origin from it): 400;
 * - a POST body above API_BODY_LIMIT_BYTES (default 1 MB): 413, on `Content-Length` or counted
 *   while streaming, before next-auth reads it; a JSON body that is not a flat object of strings
 *   (next-auth's `req.json()` threw on invalid JSON; credentials expect strings): 400.
 * Error answers are JSON `{ error, message }` with `Cache-Control: no-store`.
 */
import { NextRequest } from "next/server";
import { limitSettings } from "@/lib/env";
import { BodyAbortedError, readBodyBytes } from "@/lib/http/body";
import { hasValidHost } from "@/lib/http/host";
import { isHttps, pageSecurityHeaders } from "@/lib/http/security-headers";

/** next-auth 4's callback-url cookie names (plain and on HTTPS). */
export const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"];
const POST_ONLY_CALLBACKS = new Set(["credentials", "link"]);

/**
 * next-auth 4's own test of a callback URL (`isValidHttpUrl` in core/lib/assert.js): a path, or
 * an absolute http(s) URL. Where it sends the browser is decided later by `safeRedirectUrl`.
 */
export function nextAuthAcceptsCallbackUrl(value: string): boolean {
  try {
    return /^https?:/.test(new URL(value, value.startsWith("/") ? "http://localhost" : undefined).protocol);
  } catch {
    return false;
  }
}

/**
 * Names of the callback-url cookies next-auth would refuse: with one of them every next-auth call
 * fails, `getServerSession` on each dashboard page included (proxy.ts drops them).
 */
export function refusedCallbackUrlCookies(cookies: { get(name: string): { value: string } | undefined }): string[] {
  return CALLBACK_URL_COOKIES.filter((name) => {
    const value = cookies.get(name)?.value;
    return Boolean(value) && !nextAuthAcceptsCallbackUrl(value as string);
  });
}

/** `Set-Cookie` value that deletes the callback-url cookie `name`. */
export function clearCookieHeader(name: string): string {
  return `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`;
}

/** Headers of every answer of the auth routes (which skip proxy.ts): no framing, no sniffing, no caching. */
export function authResponseHeaders(request: Request): Record<string, string> {
  return {
    ...pageSecurityHeaders(isHttps(request)),
    // next-auth's own HTML pages (sign-out confirmation) use inline styles and no script.
    "Content-Security-Policy":
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "Cache-Control": "no-store",
  };
}

function refuse(request: Request, status: number, error: string, message: string, headers: HeadersInit = {}): Response {
  const res = Response.json({ error, message }, { status, headers: authResponseHeaders(request) });
  for (const [k, v] of new Headers(headers)) res.headers.append(k, v);
  return res;
}

/** A parsed sign-in body: form fields or a JSON object's string members. */
export type AuthBody = Record<string, string>;

/** The JSON body as a flat object of strings, or null when it is not one. */
function jsonFields(text: string): AuthBody | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  return Object.values(value).every((v) => typeof v === "string") ? (value as AuthBody) : null;
}

/**
 * Checks a request to `/api/auth/<segments>` (see the module comment).
 * @returns the answer to send instead of next-auth's, or the request to hand to next-auth (a
 *   POST rebuilt from its capped body) with the body's fields (empty for GET)
 */
export async function checkAuthRequest(
  request: NextRequest,
  segments: string[],
): Promise<Response | { request: NextRequest; body: AuthBody }> {
  if (!hasValidHost(request.headers)) return refuse(request, 400, "InvalidHost", "Missing or malformed Host header");
  const [action, provider] = segments;
  if (request.method !== "POST" && action === "callback" && POST_ONLY_CALLBACKS.has(provider ?? "")) {
    return refuse(request, 405, "MethodNotAllowed", `The ${provider} callback takes a POST`, { Allow: "POST" });
  }
  if (action === "_log") return new Response(null, { status: 204, headers: authResponseHeaders(request) });
  for (const value of request.nextUrl.searchParams.getAll("callbackUrl")) {
    if (value && !nextAuthAcceptsCallbackUrl(value)) {
      return refuse(request, 400, "InvalidCallbackUrl", "callbackUrl must be a path or an http(s) URL");
    }
  }
  const refused = refusedCallbackUrlCookies(request.cookies);
  if (refused.length) {
    const clear = new Headers();
    for (const name of refused) clear.append("Set-Cookie", clearCookieHeader(name));
    return refuse(
      request,
      400,
      "InvalidCallbackUrl",
      "The callback-url cookie was not a path or an http(s) URL; it has been cleared",
      clear,
    );
  }
  if (request.method !== "POST") return { request, body: {} };

  const limit = limitSettings().bodyLimitBytes;
  let bytes: Buffer | null;
  try {
    bytes = await readBodyBytes(request, limit);
  } catch (err) {
    if (err instanceof BodyAbortedError) return refuse(request, 400, "BadRequest", err.message);
    throw err;
  }
  if (!bytes) return refuse(request, 413, "PayloadTooLarge", `Request body is larger than ${limit} bytes`);
  const text = Buffer.from(bytes).toString("utf8");
  const type = request.headers.get("content-type") ?? "";
  let body: AuthBody = {};
  if (type.includes("application/json")) {
    const fields = jsonFields(text);
    if (!fields) return refuse(request, 400, "BadRequest", "A JSON body must be an object of strings");
    body = fields;
  } else if (type.includes("application/x-www-form-urlencoded")) {
    body = Object.fromEntries(new URLSearchParams(text));
  }
  const rebuilt = new NextRequest(request.url, {
    method: "POST",
    headers: request.headers,
    body: bytes.byteLength ? new Uint8Array(bytes) : null,
  });
  return { request: rebuilt, body };
}
