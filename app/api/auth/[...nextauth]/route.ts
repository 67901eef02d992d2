/**
 * next-auth route handler (sign-in, callbacks, session, csrf, sign-out) for the dashboard, with
 * the sign-in throttle (lib/auth/sign-in-throttle.ts) around the credentials and one-time-link
 * callbacks: a blocked account or IP gets 429 + `Retry-After` (JSON `{ url, error: "TooManyAttempts", message }`, which
 * next-auth's client reads as `error`), failures are counted, a success clears the account.
 */

import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { clientIp } from "@/lib/api/rate-limit";
import { authOptions } from "@/lib/auth/next-auth";
import {
  recordSignInFailure,
  recordSignInSuccess,
  SIGN_IN_THROTTLED_ERROR,
  signInBlockedBy,
  throttledMessage,
} from "@/lib/auth/sign-in-throttle";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };
const handler = NextAuth(authOptions) as (req: NextRequest, ctx: Context) => Promise<Response>;

async function POST(req: NextRequest, ctx: Context): Promise<Response> {
  const { nextauth } = await ctx.params;
  const provider = nextauth?.[0] === "callback" ? nextauth[1] : undefined;
  if (provider !== "credentials" && provider !== "link") return handler(req, ctx);
  const form = await req
    .clone()
    .formData()
    .catch(() => null);
  const email = form?.get("email");
  // One-time links have no account to count: their failures count for the address only.
  const subject = { email: provider === "credentials" && typeof email === "string" ? email : null, ip: clientIp(req) };
  const blocked = await signInBlockedBy(subject);
  if (blocked) {
    const url = new URL(`/sign-in?error=${SIGN_IN_THROTTLED_ERROR}`, req.nextUrl.origin).toString();
    return Response.json(
      { url, error: SIGN_IN_THROTTLED_ERROR, message: throttledMessage(blocked) },
      { status: 429, headers: { "Retry-After": String(blocked.resetSeconds), "Cache-Control": "no-store" } },
    );
  }
  const response = await handler(req, ctx);
  const location = response.headers.get("location") ?? "";
  const failed = response.status === 401 || /[?&]error=/.test(location);
  const signedIn = !failed && /session-token=/.test(response.headers.get("set-cookie") ?? "");
  if (failed) await recordSignInFailure(subject);
  else if (signedIn) await recordSignInSuccess(subject);
  return response;
}

export { handler as GET, POST };
