/**
 * Host header check (issue 40): next-auth builds its origin from `X-Forwarded-Host` or `Host`
 * (`new URL("https://" + host)`), which throws for an empty or malformed value, a 500 on every
 * dashboard page and auth route. Such requests are answered 400 instead (RFC 9112 §3.2: a request
 * with an invalid Host is a client error), by the server preload (lib/runtime/next-preload.cjs,
 * which repeats this rule in plain JS), proxy.ts and the auth route.
 */

/** True when `value` is one `host[:port]` that a URL can carry (no list, path, user info or spaces). */
export function isValidHost(value: string | null | undefined): boolean {
  if (!value || value.length > 255 || /[\s/\\?#@,]/.test(value)) return false;
  try {
    return new URL(`http://${value}`).host !== "";
  } catch {
    return false;
  }
}

/** The host next-auth reads (`X-Forwarded-Host`, else `Host`) is valid; see `isValidHost`. */
export function hasValidHost(headers: Headers): boolean {
  const forwarded = headers.get("x-forwarded-host");
  return isValidHost(headers.get("host")) && (forwarded === null || isValidHost(forwarded));
}
