import type { Metadata } from "next";
import { AuthShell } from "@/components/auth/auth-shell";
import { ActionForm } from "@/components/ui/action-form";
import { InputField } from "@/components/ui/form";
import { forgotPasswordAction } from "./actions";

export const metadata: Metadata = { title: "Forgot password" };

/** "Forgot password": asks for the e-mail and sends a single-use reset link. */
export default function ForgotPasswordPage() {
  return (
    <AuthShell title="Forgot your password?" footerLink={{ href: "/sign-in", label: "Back to sign-in" }}>
      <ActionForm action={forgotPasswordAction} submitLabel="Send reset link" pendingLabel="Sending…">
        <InputField id="email" label="E-mail" name="email" type="email" required autoComplete="email" />
      </ActionForm>
    </AuthShell>
  );
}
