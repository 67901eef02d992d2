/**
 * next-auth route handler (sign-in, callbacks, session, csrf, sign-out) for the dashboard.
 * Before next-auth, `checkAuthRequest` (lib/auth/auth-route.ts) answers client mistakes with
 * 400/405/413 instead of next-auth's 500s and caps the body (issue 40); every answer gets
 * `authResponseHeaders` (this route skips proxy.ts).
 * The sign-in throttle (lib/auth/sign-in-throttle.ts) is around the credentials and one-time-link
 * callbacks: each attempt is counted atomically before next-auth checks it; a used-up account and
 * address pair, or address, gets 429 + `Retry-After` (JSON `{ url, error: "TooManyAttempts", message }`,
 * which next-auth's client reads as `error`; a plain form POST, made before the sign-in page
 * hydrated, is sent back to the sign-in page with that error instead); an account with many
 * recent failures waits its progressive delay first; a success refunds the attempt.
 */

import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { clientIp } from "@/lib/api/rate-limit";
import { authResponseHeaders, checkAuthRequest } from "@/lib/auth/auth-route";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { authOptions } from "@/lib/auth/next-auth";
import { admitSignIn, SIGN_IN_THROTTLED_ERROR, throttledMessage } from "@/lib/auth/sign-in-throttle";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };
const nextAuth = NextAuth(authOptions) as (req: NextRequest, ctx: Context) => Promise<Response>;

function withHeaders(request: NextRequest, response: Response): Response {
  for (const [k, v] of Object.entries(authResponseHeaders(request))) {
    if (!response.headers.has(k)) response.headers.set(k, v);
  }
  return response;
}

async function handle(req: NextRequest, ctx: Context): Promise<Response> {
  const segments = (await ctx.params).nextauth ?? [];
  const checked = await checkAuthRequest(req, segments);
  if (checked instanceof Response) return checked;
  const { request, body } = checked;
  const provider = request.method === "POST" && segments[0] === "callback" ? segments[1] : undefined;
  if (provider !== "credentials" && provider !== "link") return withHeaders(req, await nextAuth(request, ctx));

  // One-time links have no account to count: their failures count for the address only.
  const subject = { email: provider === "credentials" && body.email ? body.email : null, ip: clientIp(req) };
  const attempt = await admitSignIn(subject);
  const { blocked } = attempt;
  if (blocked) {
    const url = new URL(`/sign-in?error=${SIGN_IN_THROTTLED_ERROR}`, req.nextUrl.origin);
    if (body.json !== "true") {
      url.searchParams.set("callbackUrl", safeCallbackPath(body.callbackUrl));
      return withHeaders(req, new Response(null, { status: 303, headers: { Location: url.toString() } }));
    }
    return Response.json(
      { url: url.toString(), error: SIGN_IN_THROTTLED_ERROR, message: throttledMessage(blocked) },
      { status: 429, headers: { ...authResponseHeaders(req), "Retry-After": String(blocked.resetSeconds) } },
    );
  }
  if (attempt.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, attempt.delayMs));
  let response: Response;
  try {
    response = await nextAuth(request, ctx);
  } catch (err) {
    await attempt.settle("none");
    throw err;
  }
  const location = response.headers.get("location") ?? "";
  const failed = response.status === 401 || /[?&]error=/.test(location);
  const signedIn = !failed && /session-token=/.test(response.headers.get("set-cookie") ?? "");
  await attempt.settle(failed ? "failure" : signedIn ? "success" : "none");
  return withHeaders(req, response);
}

export { handle as GET, handle as POST };
