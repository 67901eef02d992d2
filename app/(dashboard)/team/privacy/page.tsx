import type { Metadata } from "next";
import { ActionForm } from "@/components/ui/action-form";
import { LinkButton } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { InputField } from "@/components/ui/form";
import { getAnonymityThreshold, MAX_ANONYMITY_THRESHOLD, MIN_ANONYMITY_THRESHOLD } from "@/lib/domain/anonymity";
import { requireUser } from "../../load";
import { setAnonymityThresholdAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Privacy" };

/** Team → Privacy (issue 45): the anonymity threshold k; admins change it, members read it. */
export default async function PrivacyPage() {
  const user = await requireUser();
  const threshold = await getAnonymityThreshold(user);
  return (
    <>
      <PageHeader
        title="Privacy"
        description="How anonymous standups, reports and polls stay anonymous."
        actions={
          <LinkButton href="/team" variant="secondary">
            Back to team
          </LinkButton>
        }
      />
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
    </>
  );
}
