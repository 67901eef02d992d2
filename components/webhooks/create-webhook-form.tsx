"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { InputField } from "@/components/ui/form";
import { ShownOnce } from "@/components/ui/shown-once";
import { submitKeepingValues } from "@/components/ui/submit-keeping-values";

/** The create form's state: the secret shown once, or a message (`urlError` next to the Endpoint URL field). */
export type CreateWebhookState = { secret?: string; error?: string; urlError?: string };

/**
 * Create-webhook form; shows the signing secret once with a copy button. A refused URL is
 * explained next to the "Endpoint URL" field and what was typed stays (submitted through
 * `onSubmit` + a transition: React resets a form after its `action` prop runs); the form is
 * emptied (remounted) after an endpoint was added.
 */
export function CreateWebhookForm({
  action,
  eventTypes,
}: {
  action: (prev: CreateWebhookState, form: FormData) => Promise<CreateWebhookState>;
  eventTypes: readonly string[];
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <div className="space-y-4">
      <form key={state.secret ?? "new"} className="space-y-3" onSubmit={submitKeepingValues(formAction)}>
        <InputField
          id="wh-url"
          label="Endpoint URL"
          hint="https://… — it receives a signed POST per event."
          error={state.urlError}
          name="url"
          type="url"
          required
          maxLength={2000}
        />
        <InputField id="wh-description" label="Description (optional)" name="description" maxLength={500} />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Events</legend>
          <div className="flex flex-wrap gap-3">
            {eventTypes.map((e) => (
              <div key={e} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  id={`wh-ev-${e}`}
                  name="events"
                  value={e}
                  defaultChecked={e.startsWith("report.")}
                  className="accent-brand-700"
                />
                <label htmlFor={`wh-ev-${e}`} className="font-mono text-sm">
                  {e}
                </label>
              </div>
            ))}
          </div>
        </fieldset>
        <Button type="submit" disabled={pending}>
          {pending ? "Adding…" : "Add endpoint"}
        </Button>
      </form>
      {state.error && <Alert>{state.error}</Alert>}
      {state.secret && <ShownOnce value={state.secret} what="the signing secret" copyLabel="Copy secret" testId="new-webhook-secret" />}
    </div>
  );
}
