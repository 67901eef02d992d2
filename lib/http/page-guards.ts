/**
 * Checks proxy.ts makes before Next.js handles a dashboard request, for what Next would answer
 * with a 500 (issue 40):
 * - a possible server action (Next.js 16 `getServerActionRequestMetadata`: a POST with a
 *   `Next-Action` header or a multipart body) must come from this host (`sameOrigin`; else 403: Next threw
 *   "Invalid Server Actions request", a 500, and `new URL()` of a malformed Origin threw too);
 * - a multipart POST without `Next-Action` (what a form with a server action sends before
 *   hydration) must be a readable multipart body (else 400; Next's decoder threw);
 * - callback-url cookies next-auth would refuse are dropped from the request and deleted in the
 *   answer (next-auth's `getServerSession` threw on every page).
 */
import { refusedCallbackUrlCookies } from "@/lib/auth/auth-route";
import { limitSettings } from "@/lib/env";

const textAnswer = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });

/**
 * True when the request's Origin names this host. Next.js compares the Origin with the first
 * `X-Forwarded-Host`, else `Host`; `X-Forwarded-Host` is trusted only from our own reverse proxy
 * (TRUST_PROXY), so without it the Origin must match `Host` and, when one is sent, the forwarded
 * host too (a mismatch Next would throw on is refused here instead).
 */
export function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || null;
  const host = request.headers.get("host");
  const hosts = limitSettings().trustProxy ? [forwarded ?? host] : [host, ...(forwarded ? [forwarded] : [])];
  try {
    const originHost = new URL(origin).host;
    return hosts.every((h) => h === originHost);
  } catch {
    return false;
  }
}

/**
 * The answer to a server-action request Next.js cannot serve (see the module comment), or null.
 * Reads the body of a multipart POST without `Next-Action` (the proxy's own copy of it).
 */
export async function refuseServerAction(request: Request): Promise<Response | null> {
  if (request.method !== "POST") return null;
  const fetchAction = request.headers.has("next-action");
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  if (!fetchAction && !multipart) return null;
  if (!sameOrigin(request)) return textAnswer(403, "Forbidden: cross-origin server action request");
  if (multipart && !fetchAction) {
    const readable = await request.formData().then(
      () => true,
      () => false,
    );
    if (!readable) return textAnswer(400, "Bad request: the multipart form body cannot be read");
  }
  return null;
}

/**
 * The Cookie header without the callback-url cookies next-auth would refuse, and their names
 * (to delete in the answer); null when there are none.
 */
export function withoutRefusedCookies(request: Request & { cookies: { get(name: string): { value: string } | undefined } }) {
  const refused = refusedCallbackUrlCookies(request.cookies);
  if (!refused.length) return null;
  const cookie = (request.headers.get("cookie") ?? "")
    .split(";")
    .filter((pair) => !refused.includes(pair.split("=")[0].trim()))
    .join(";");
  return { cookie, refused };
}
