import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/auth/auth-shell";
import { NewPasswordFields } from "@/components/auth/new-password-fields";
import { TimezoneSelect } from "@/components/people/timezone-select";
import { ActionForm } from "@/components/ui/action-form";
import { InputField } from "@/components/ui/form";
import { needsSetup } from "@/lib/domain/first-run";
import { setupAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up" };

/** First run: create the team and its first admin. Gone for good once any team exists. */
export default async function SetupPage() {
  if (!(await needsSetup())) redirect("/sign-in");
  return (
    <AuthShell title="Set up your team" wide>
      <p className="mb-4 text-sm text-slate-600">
        This service has no team yet. Create yours and its first admin; you can invite everyone else afterwards. This page disappears once
        the team exists.
      </p>
      <ActionForm action={setupAction} submitLabel="Create team" pendingLabel="Creating…">
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-slate-900">Team</legend>
          <InputField id="teamName" label="Team name" name="teamName" required maxLength={100} autoComplete="organization" />
          <TimezoneSelect id="timezone" label="Team timezone" />
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-slate-900">First admin (you)</legend>
          <InputField id="name" label="Your name" name="name" required maxLength={100} autoComplete="name" />
          <InputField id="email" label="E-mail" name="email" type="email" required autoComplete="email" />
          <NewPasswordFields />
        </fieldset>
      </ActionForm>
    </AuthShell>
  );
}
