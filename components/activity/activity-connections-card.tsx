import { ActionForm, type ActionState } from "@/components/ui/action-form";
import { Badge, Card } from "@/components/ui/card";
import { InputField, SelectField } from "@/components/ui/form";
import { ACTIVITY_PROVIDERS, PROVIDER_LABELS } from "@/lib/activity/types";
import type { ActivityConnectionView } from "@/lib/domain/activity-connections";

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;

/** When a connection was last read and how it went, in words. */
export function connectionStatus(c: ActivityConnectionView): string {
  if (!c.lastFetchedAt) return "not read yet";
  const when = c.lastFetchedAt.toISOString().slice(0, 16).replace("T", " ");
  return c.lastError ? `last read ${when} UTC failed: ${c.lastError}` : `read ${when} UTC`;
}

/**
 * The Profile's "Activity" card (issue 48): the person's forge and tracker connections (provider,
 * server, account and status; the token is never shown again) with "Remove", and a form to add one.
 */
export function ActivityConnectionsCard({
  connections,
  add,
  remove,
}: {
  connections: ActivityConnectionView[];
  add: Action;
  remove: Action;
}) {
  return (
    <Card title="Activity" className="lg:col-span-2">
      <p className="mb-3 text-sm text-slate-600">
        Connect GitHub, GitLab, Gitea/Forgejo, Jira or Linear with a read-only access token. When a standup asks you, what you did since
        your previous report (commits, pull/merge requests opened, merged or reviewed, issues closed or moved) pre-fills your first answer
        as an editable list. Nothing is posted unless you send the report. Tokens are stored encrypted and never shown again.
      </p>
      {connections.length > 0 && (
        <ul className="mb-4 space-y-2 text-sm" aria-label="Your activity connections">
          {connections.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-2" data-testid="activity-connection">
              <span className="font-medium text-slate-800">{c.label}</span>
              <code className="text-slate-700">{c.baseUrl}</code>
              {c.login && <span className="text-slate-600">as {c.login}</span>}
              <Badge tone={c.lastError ? "red" : "slate"}>{connectionStatus(c)}</Badge>
              <ActionForm
                action={remove}
                submitLabel="Remove"
                pendingLabel="Removing…"
                variant="ghost"
                confirm="Remove this connection and its token?"
                submitAriaLabel={`Remove ${c.label} connection`}
              >
                <input type="hidden" name="connectionId" value={c.id} />
              </ActionForm>
            </li>
          ))}
        </ul>
      )}
      <ActionForm
        action={add}
        submitLabel="Connect"
        pendingLabel="Connecting…"
        className="grid gap-3 sm:grid-cols-2"
        testId="activity-form"
      >
        <SelectField
          id="act-provider"
          name="provider"
          label="Service"
          options={ACTIVITY_PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] }))}
          defaultValue="github"
        />
        <InputField
          id="act-base"
          label="Server address (optional for GitHub, GitLab.com, Linear)"
          name="baseUrl"
          type="url"
          maxLength={500}
          placeholder="https://github.example.com/api/v3"
          hint="GitHub Enterprise: …/api/v3. GitLab, Gitea/Forgejo, Jira: the site's address."
          autoComplete="off"
        />
        <InputField
          id="act-login"
          label="Account"
          name="login"
          maxLength={200}
          hint="GitHub and Gitea: your user name. Jira Cloud: your e-mail. Otherwise optional."
          autoComplete="off"
        />
        <InputField id="act-token" label="Access token" name="token" type="password" required maxLength={1000} autoComplete="off" />
      </ActionForm>
    </Card>
  );
}
