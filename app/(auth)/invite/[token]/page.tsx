import type { Metadata } from "next";
import { AuthShell } from "@/components/auth/auth-shell";
import { NewPasswordFields } from "@/components/auth/new-password-fields";
import { TimezoneSelect } from "@/components/people/timezone-select";
import { ActionForm } from "@/components/ui/action-form";
import { InputField } from "@/components/ui/form";
import { invitationOfLink } from "@/lib/domain/people";
import { acceptInvitationAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Accept invitation", referrer: "no-referrer" };

/** Invitation link: choose name, password and timezone (the link works once, for 7 days). */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await invitationOfLink(token);
  if (!invitation) {
    return (
      <AuthShell title="Invitation not valid" footerLink={{ href: "/sign-in", label: "Go to sign-in" }}>
        <p className="text-sm text-slate-700">
          This invitation link is invalid, has expired or has already been used. Ask a team admin for a new one.
        </p>
      </AuthShell>
    );
  }
  return (
    <AuthShell title={`Join ${invitation.teamName}`}>
      <p className="mb-4 text-sm text-slate-600">
        You were invited as <strong>{invitation.email}</strong>. Choose your password to finish.
      </p>
      <ActionForm action={acceptInvitationAction} submitLabel="Join the team" pendingLabel="Joining…">
        <input type="hidden" name="token" value={token} />
        <InputField
          id="name"
          label="Your name"
          name="name"
          required
          maxLength={100}
          defaultValue={invitation.realname}
          autoComplete="name"
        />
        <TimezoneSelect id="timezone" defaultValue={invitation.timezone} />
        <NewPasswordFields />
      </ActionForm>
    </AuthShell>
  );
}
