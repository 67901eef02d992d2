/**
 * Where the dashboard may send a browser after sign-in (issue 13, open redirect): only a
 * same-origin path. Backslashes (browsers read `/\evil.example` as `//evil.example`), control
 * characters and whitespace, scheme-relative `//host` forms and absolute URLs are refused; what is
 * left is parsed with `URL` against a placeholder origin and must stay on it. The normalised
 * result is checked again (issue 40): dot segments can turn a path into a scheme-relative one
 * (`/..//evil.example` and `/.//evil.example` both normalise to `//evil.example`).
 */

const PLACEHOLDER = "http://same-origin.invalid";

/**
 * @returns the normalised path (`/standups?x=1#y`) when `value` is a same-origin path, else `fallback`.
 */
export function safeCallbackPath(value: string | null | undefined, fallback = "/overview"): string {
  if (!value || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\\\u0000-\u0020\u007f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return staysOnOrigin(path) ? path : fallback;
}

/** True when `path` (already normalised) is read by a browser as a path on the current origin. */
function staysOnOrigin(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return false;
  try {
    return new URL(path, PLACEHOLDER).origin === PLACEHOLDER;
  } catch {
    return false;
  }
}

/**
 * next-auth's `redirect` callback rule: absolute URLs on `baseUrl` pass, same-origin paths are
 * made absolute, anything else goes to `baseUrl` + fallback.
 */
export function safeRedirectUrl(url: string, baseUrl: string, fallback = "/overview"): string {
  const base = new URL(baseUrl);
  if (!url.startsWith("/")) {
    try {
      const u = new URL(url);
      if (u.origin === base.origin) return safeRedirectUrl(`${u.pathname}${u.search}${u.hash}`, baseUrl, fallback);
    } catch {
      /* not a URL */
    }
    return new URL(fallback, base).toString();
  }
  return new URL(safeCallbackPath(url, fallback), base).toString();
}
