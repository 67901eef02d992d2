import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { ratePolicies } from "@/lib/api/rate-limit";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { oauthProviderButtons } from "@/lib/auth/next-auth";
import { getSessionUser } from "@/lib/auth/session";
import { needsSetup } from "@/lib/domain/first-run";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

const NOTICES: Record<string, string> = {
  setup: "Your team is ready. Sign in with the e-mail and password you chose.",
  welcome: "Welcome! Sign in with your new password.",
  reset: "Your password has been changed. Sign in with it.",
};

const ERRORS: Record<string, string> = {
  CredentialsSignin: "That email and password do not match an account.",
  AccessDenied: "No active account uses that email address. Ask a team admin to add you.",
  OAuthSignin: "The sign-in provider could not be reached.",
  OAuthCallback: "The sign-in provider returned an error.",
  SessionRequired: "Please sign in to continue.",
  TooManyAttempts: "Too many failed sign-in attempts. Wait a few minutes and try again.",
};

/**
 * Sign-in page: email + password, plus any OAuth/OIDC providers switched on by env. The form posts
 * to next-auth's credentials callback with the CSRF token proxy.ts made for this request, so it
 * also works before hydration and without JavaScript (issue 40 item 8).
 */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; callbackUrl?: string; notice?: string; email?: string }>;
}) {
  const { error, callbackUrl, notice, email } = await searchParams;
  if (await getSessionUser()) redirect("/overview");
  if (await needsSetup()) redirect("/setup");
  const safeCallback = safeCallbackPath(callbackUrl);
  const csrfToken = (await headers()).get("x-checkin-csrf-token") ?? "";
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <p className="mb-6 text-center text-lg font-semibold text-brand-700">Team Check-in</p>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="mb-4 text-xl font-semibold text-slate-900">Sign in</h1>
          <SignInForm
            callbackUrl={safeCallback}
            csrfToken={csrfToken}
            initialError={error ? (ERRORS[error] ?? "Sign-in failed. Please try again.") : undefined}
            providers={oauthProviderButtons()}
            notice={notice ? NOTICES[notice] : undefined}
            defaultEmail={email}
            throttleMinutes={ratePolicies().signInPair.windowSeconds / 60}
          />
        </div>
      </div>
    </main>
  );
}
