/**
 * next-auth route handler (sign-in, callbacks, session, csrf, sign-out) for the dashboard, with
 * the sign-in throttle (lib/auth/sign-in-throttle.ts) around the credentials and one-time-link
 * callbacks: each attempt is counted atomically before next-auth checks it; a used-up account and
 * address pair, or address, gets 429 + `Retry-After` (JSON `{ url, error: "TooManyAttempts", message }`,
 * which next-auth's client reads as `error`); an account with many recent failures waits its
 * progressive delay first; a success refunds the attempt.
 */

import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { clientIp } from "@/lib/api/rate-limit";
import { authOptions } from "@/lib/auth/next-auth";
import { admitSignIn, SIGN_IN_THROTTLED_ERROR, throttledMessage } from "@/lib/auth/sign-in-throttle";

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
  const attempt = await admitSignIn(subject);
  const { blocked } = attempt;
  if (blocked) {
    const url = new URL(`/sign-in?error=${SIGN_IN_THROTTLED_ERROR}`, req.nextUrl.origin).toString();
    return Response.json(
      { url, error: SIGN_IN_THROTTLED_ERROR, message: throttledMessage(blocked) },
      { status: 429, headers: { "Retry-After": String(blocked.resetSeconds), "Cache-Control": "no-store" } },
    );
  }
  if (attempt.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, attempt.delayMs));
  let response: Response;
  try {
    response = await handler(req, ctx);
  } catch (err) {
    await attempt.settle("none");
    throw err;
  }
  const location = response.headers.get("location") ?? "";
  const failed = response.status === 401 || /[?&]error=/.test(location);
  const signedIn = !failed && /session-token=/.test(response.headers.get("set-cookie") ?? "");
  await attempt.settle(failed ? "failure" : signedIn ? "success" : "none");
  return response;
}

export { handler as GET, POST };
