/**
 * Security headers of every dashboard page (issue 13), set by proxy.ts: a nonce-based Content
 * Security Policy (Next.js reads the nonce from the request's CSP header and puts it on its own
 * scripts), `frame-ancestors 'none'` + `X-Frame-Options: DENY` (no clickjacking of the API-key
 * page), `nosniff`, `Referrer-Policy: strict-origin-when-cross-origin`, and HSTS when the request
 * came over HTTPS (directly or as `X-Forwarded-Proto: https` from your reverse proxy).
 * API responses keep `Access-Control-Allow-Origin: *` without credentials and get only `nosniff`.
 */

/** A fresh random nonce (128 bits, base64). */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * The CSP of a page. Styles allow inline attributes (charts and Tailwind set `style=""`), scripts
 * only carry the nonce ('strict-dynamic' lets Next's loader add its chunks); dev mode adds
 * 'unsafe-eval' for React's debugging.
 */
export function contentSecurityPolicy(nonce: string, opts: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** The response headers of a dashboard page besides the CSP. */
export function pageSecurityHeaders(https: boolean): Record<string, string> {
  return {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    ...(https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** True when the request reached us over HTTPS (directly, or per X-Forwarded-Proto). */
export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https" || new URL(request.url).protocol === "https:";
}
