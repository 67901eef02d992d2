import type { Metadata } from "next";
import { AuthShell } from "@/components/auth/auth-shell";
import { NewPasswordFields } from "@/components/auth/new-password-fields";
import { ActionForm } from "@/components/ui/action-form";
import { passwordResetOfLink } from "@/lib/domain/passwords";
import { resetPasswordAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Reset password", referrer: "no-referrer" };

/** Password-reset link: choose a new password (the link works once, for one hour). */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await passwordResetOfLink(token);
  if (!reset) {
    return (
      <AuthShell title="Link not valid" footerLink={{ href: "/forgot-password", label: "Ask for a new link" }}>
        <p className="text-sm text-slate-700">This reset link is invalid, has expired or has already been used.</p>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Choose a new password">
      <p className="mb-4 text-sm text-slate-600">For {reset.email}. Other signed-in sessions end.</p>
      <ActionForm action={resetPasswordAction} submitLabel="Set password">
        <input type="hidden" name="token" value={token} />
        <NewPasswordFields label="New password" />
      </ActionForm>
    </AuthShell>
  );
}
