import type { Metadata } from "next";
import { AuthShell } from "@/components/auth/auth-shell";
import { LinkSignIn } from "@/components/auth/link-sign-in";

export const metadata: Metadata = { title: "Sign in with a link", referrer: "no-referrer" };

/** One-time sign-in link (printed by `npm run team -- create`). */
export default async function LinkSignInPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <AuthShell title="Sign in">
      <LinkSignIn token={token} />
    </AuthShell>
  );
}
