"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { InputField } from "@/components/ui/form";

/**
 * Email + password form (next-auth credentials provider) and OAuth buttons. Once hydrated it signs
 * in with `signIn()` (errors shown in place); before that (or without JavaScript) it is a plain
 * POST form to the credentials callback carrying `csrfToken`, so the password is never sent in a
 * URL (issue 40 item 8).
 */
export function SignInForm({
  callbackUrl,
  csrfToken,
  initialError,
  providers,
  notice,
  defaultEmail,
  throttleMinutes = 15,
}: {
  callbackUrl: string;
  /** next-auth CSRF token for the no-JavaScript POST (proxy.ts sets its cookie). */
  csrfToken: string;
  /** Window of the sign-in throttle, in minutes (shown after a 429). */
  throttleMinutes?: number;
  initialError?: string;
  providers: Array<{ id: string; name: string }>;
  notice?: string;
  defaultEmail?: string;
}) {
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
      callbackUrl,
    });
    if (!result || result.error) {
      setPending(false);
      setError(
        result?.error === "TooManyAttempts"
          ? `Too many failed sign-in attempts. Wait ${throttleMinutes} minutes and try again.`
          : "That email and password do not match an account.",
      );
      return;
    }
    window.location.assign(callbackUrl);
  }

  return (
    <div className="space-y-4">
      {notice && !error && <Alert tone="success">{notice}</Alert>}
      {error && <Alert>{error}</Alert>}
      <form method="post" action="/api/auth/callback/credentials" onSubmit={onSubmit} className="space-y-4" noValidate={false}>
        <input type="hidden" name="csrfToken" value={csrfToken} />
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <InputField id="email" label="Email" name="email" type="email" autoComplete="username" required defaultValue={defaultEmail} />
        <InputField id="password" label="Password" name="password" type="password" autoComplete="current-password" required />
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      <p className="text-sm">
        <Link href="/forgot-password" className="text-brand-700 underline">
          Forgot your password?
        </Link>
      </p>
      {providers.length > 0 && (
        <div className="space-y-2 border-t border-slate-200 pt-4">
          {providers.map((p) => (
            <Button key={p.id} variant="secondary" className="w-full" onClick={() => signIn(p.id, { callbackUrl })}>
              Continue with {p.name}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
