"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

/**
 * Signs in with a one-time link token on a click (not on page load, so mail scanners that open
 * links do not use it up).
 */
export function LinkSignIn({ token }: { token: string }) {
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  async function go() {
    setPending(true);
    const result = await signIn("link", { token, redirect: false, callbackUrl: "/profile" });
    if (!result || result.error) {
      setPending(false);
      setError("This sign-in link is invalid, has expired or has already been used.");
      return;
    }
    window.location.assign("/profile");
  }
  return (
    <div className="space-y-4">
      {error && <Alert>{error}</Alert>}
      <p className="text-sm text-slate-600">This link signs you in once. Then set a password on your profile page.</p>
      <Button className="w-full" onClick={go} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </div>
  );
}
