/**
 * next-auth's CSRF double-submit cookie, made by the proxy for the sign-in page (issue 40 item 8)
 * so that its server-rendered form can post straight to `/api/auth/callback/credentials` before
 * the page's scripts run (or without JavaScript): the password travels in a POST body, never in a
 * URL. Same format as next-auth 4 (`core/lib/csrf-token.js`): the cookie holds
 * `<token>|sha256(<token><secret>)`, the form sends `<token>`; an existing valid cookie is kept,
 * so the page and next-auth's own `/api/auth/csrf` agree on one token.
 */
import { createHash, randomBytes } from "node:crypto";

/** Cookie name next-auth 4 uses (`__Host-` prefix when its cookies are secure, i.e. on HTTPS). */
export function csrfCookieName(secure: boolean): string {
  return `${secure ? "__Host-" : ""}next-auth.csrf-token`;
}

const hashOf = (token: string, secret: string) => createHash("sha256").update(`${token}${secret}`).digest("hex");

/**
 * The CSRF token for a form, reusing the token of `existing` (the cookie's value) when its hash
 * matches `secret`.
 * @returns `{ token }`, plus `cookie` (the new cookie value to set) when a new token was made
 */
export function csrfTokenFor(existing: string | undefined, secret: string): { token: string; cookie?: string } {
  if (existing) {
    const [token, hash] = existing.split("|");
    if (token && hash === hashOf(token, secret)) return { token };
  }
  const token = randomBytes(32).toString("hex");
  return { token, cookie: `${token}|${hashOf(token, secret)}` };
}

/**
 * Whether next-auth 4 uses secure (`__Secure-` / `__Host-`) cookie names for this request: its
 * origin is `NEXTAUTH_URL` when set, else `https://` unless `X-Forwarded-Proto` is exactly `http`
 * (utils/detect-origin.js); Next.js sets that header from the connection (`connectionHttps`)
 * when no proxy did, after proxy.ts has run.
 */
export function nextAuthUsesSecureCookies(request: Request, nextAuthUrl: string | undefined): boolean {
  if (nextAuthUrl) return nextAuthUrl.startsWith("https://");
  const forwarded = request.headers.get("x-forwarded-proto");
  return forwarded === null ? new URL(request.url).protocol === "https:" : forwarded !== "http";
}
