import type { Metadata } from "next";
import { TeamPageHeader } from "@/components/team/team-page-header";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { InputField, SelectField } from "@/components/ui/form";
import { getAnonymityThreshold, MAX_ANONYMITY_THRESHOLD, MIN_ANONYMITY_THRESHOLD } from "@/lib/domain/anonymity";
import { getRetention, MAX_RETENTION_DAYS } from "@/lib/domain/retention";
import { requireUser } from "../../load";
import { setAnonymityThresholdAction, setRetentionAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Privacy" };

/** Team → Privacy (issue 45): the anonymity threshold k; admins change it, members read it. */
export default async function PrivacyPage() {
  const user = await requireUser();
  const [threshold, retention] = await Promise.all([getAnonymityThreshold(user), getRetention(user)]);
  return (
    <>
      <TeamPageHeader title="Privacy" description="How anonymous standups, reports and polls stay anonymous." />
      <Card title="Anonymity threshold">
        <p className="mb-3 text-sm text-slate-700" data-testid="anonymity-threshold">
          Results of an anonymous poll broadcast, and the reports of an anonymous standup run, are shown only once at least{" "}
          <strong>{threshold}</strong> people answered it. Until then the API, the dashboard, exports and chat messages show no counts or
          answers, only how many more answers are needed. Each author always sees their own answers.
        </p>
        {user.isAdmin && (
          <ActionForm action={setAnonymityThresholdAction} submitLabel="Save" pendingLabel="Saving…" testId="anonymity-threshold-form">
            <InputField
              id="privacy-threshold"
              label="Minimum number of people (k)"
              name="threshold"
              type="number"
              required
              min={MIN_ANONYMITY_THRESHOLD}
              max={MAX_ANONYMITY_THRESHOLD}
              defaultValue={threshold}
              hint={`At least ${MIN_ANONYMITY_THRESHOLD}: with fewer, the results identify who answered.`}
            />
          </ActionForm>
        )}
      </Card>
      <Card title="Retention" className="mt-6">
        <p className="mb-3 text-sm text-slate-700" data-testid="retention-summary">
          {retention.days === null
            ? "Report answers, poll responses and chat message texts are kept forever."
            : `Report answers, poll responses and chat message texts older than ${retention.days} days are ${
                retention.mode === "delete" ? "deleted with their reports and votes" : "removed, keeping the fact that someone answered"
              } every night.`}{" "}
          Audit log entries are kept {retention.auditDays} days. Backups age out by their own retention (see the operations guide), so
          erased or expired data can stay in a backup until it expires.
        </p>
        {user.isAdmin && (
          <ActionForm action={setRetentionAction} submitLabel="Save retention" pendingLabel="Saving…" testId="retention-form">
            <div className="grid gap-3 sm:grid-cols-3">
              <InputField
                id="retention-days"
                label="Keep answers (days)"
                name="days"
                type="number"
                min={1}
                max={MAX_RETENTION_DAYS}
                defaultValue={retention.days ?? ""}
                hint="Empty: forever."
              />
              <SelectField
                id="retention-mode"
                label="Then"
                name="mode"
                options={[
                  { value: "anonymise", label: "Anonymise (keep participation)" },
                  { value: "delete", label: "Delete reports and votes" },
                ]}
                defaultValue={retention.mode}
              />
              <InputField
                id="retention-audit-days"
                label="Keep audit entries (days)"
                name="auditDays"
                type="number"
                required
                min={1}
                max={MAX_RETENTION_DAYS}
                defaultValue={retention.auditDays}
              />
            </div>
          </ActionForm>
        )}
      </Card>
    </>
  );
}
