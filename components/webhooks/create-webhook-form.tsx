"use client";

import { useActionState } from "react";
import type { CreateWebhookState } from "@/app/(dashboard)/settings/webhooks/actions";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, Input, InputField } from "@/components/ui/form";
import { ShownOnce } from "@/components/ui/shown-once";

/** Create-webhook form; shows the signing secret once with a copy button. */
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
      <form action={formAction} className="space-y-3">
        <Field id="wh-url" label="Endpoint URL" hint="https://… — it receives a signed POST per event.">
          <Input id="wh-url" name="url" type="url" required maxLength={2000} aria-describedby="wh-url-hint" />
        </Field>
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
