import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TeamPageHeader } from "@/components/team/team-page-header";
import { ActionForm } from "@/components/ui/action-form";
import { Badge, Card } from "@/components/ui/card";
import { Checkbox, InputField } from "@/components/ui/form";
import { getDashboardImport } from "@/lib/import/geekbot/dashboard-run";
import { GEEKBOT_API_URL } from "@/lib/import/geekbot/run";
import { requireUser } from "../../load";
import { startImportAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Import from Geekbot" };

/**
 * Team → Import (admins, issue 43): starts an import from Geekbot's API (a background job) and shows
 * the last run's progress and summary; the page reloads itself every 5 seconds while a run is under way.
 */
export default async function ImportPage() {
  const user = await requireUser();
  if (!user.isAdmin) notFound();
  const run = await getDashboardImport(user);
  const busy = run?.state === "queued" || run?.state === "running";
  return (
    <>
      {busy && <meta httpEquiv="refresh" content="5" />}
      <TeamPageHeader
        title="Import from Geekbot"
        description="Copies people, channels, standups, report history and polls from Geekbot into this team. Nothing is sent to anyone, and running it again imports only what is new."
      />
      <div className="space-y-6">
        <Card title="Start an import">
          <ActionForm action={startImportAction} submitLabel="Start import" pendingLabel="Starting…" testId="start-import">
            <div className="grid gap-3 sm:grid-cols-2">
              <InputField id="i-key" label="API key of a Geekbot admin" name="key" type="password" required autoComplete="off" />
              <InputField
                id="i-url"
                label="Source URL"
                name="baseUrl"
                type="url"
                placeholder={GEEKBOT_API_URL}
                hint="Leave empty for Geekbot; any server speaking the same API works."
              />
            </div>
            <Checkbox id="i-dry" name="dryRun" label="Dry run: only count what would be created" />
          </ActionForm>
        </Card>
        {run && (
          <Card title="Last import">
            <p className="text-sm text-slate-700" data-testid="import-state">
              <Badge>{run.state}</Badge> {run.dryRun ? "Dry run of " : "Import of "}
              {run.baseUrl}, started {new Date(run.startedAt).toUTCString()}
            </p>
            {run.error && <p className="mt-2 text-sm text-red-700">{run.error}</p>}
            <pre className="mt-3 overflow-x-auto rounded bg-slate-50 p-3 text-xs text-slate-800" data-testid="import-log">
              {(run.summary ?? run.lines).join("\n") || "Waiting for the job worker…"}
            </pre>
          </Card>
        )}
      </div>
    </>
  );
}
