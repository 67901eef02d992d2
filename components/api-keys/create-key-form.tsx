"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/form";
import { ShownOnce } from "@/components/ui/shown-once";

/** The create-key form's state: the new key (shown once), or the error and the name typed. */
export type CreateKeyState = { key?: string; prefix?: string; error?: string; name?: string };

/** Create-key form; shows the new key once with a copy button. */
export function CreateKeyForm({ action }: { action: (prev: CreateKeyState, form: FormData) => Promise<CreateKeyState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <div className="space-y-4">
      <form action={formAction} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field id="key-name" label="Key name" className="flex-1" hint="What will use it, e.g. “CI reporting script”." error={state.error}>
          <Input
            id="key-name"
            name="name"
            required
            maxLength={100}
            defaultValue={state.name}
            aria-invalid={state.error ? true : undefined}
            aria-describedby={state.error ? "key-name-hint key-name-error" : "key-name-hint"}
          />
        </Field>
        <Button type="submit" disabled={pending} className="sm:mb-5">
          {pending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {state.key && <ShownOnce value={state.key} what="your new key" copyLabel="Copy key" testId="new-api-key" />}
    </div>
  );
}
