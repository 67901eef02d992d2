"use client";

import { useActionState } from "react";
import type { CreateKeyState } from "@/app/(dashboard)/settings/api-keys/actions";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Input } from "@/components/ui/form";

/** Create-key form; shows the new key once with a copy button. */
export function CreateKeyForm({ action }: { action: (prev: CreateKeyState, form: FormData) => Promise<CreateKeyState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <div className="space-y-4">
      <form action={formAction} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field id="key-name" label="Key name" className="flex-1" hint="What will use it, e.g. “CI reporting script”.">
          <Input id="key-name" name="name" required maxLength={100} aria-describedby="key-name-hint" />
        </Field>
        <Button type="submit" disabled={pending} className="sm:mb-5">
          {pending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {state.error && <Alert>{state.error}</Alert>}
      {state.key && (
        <div className="space-y-2 rounded-md border border-green-300 bg-green-50 p-3">
          <p className="text-sm font-medium text-green-900">Copy your new key now: it will not be shown again.</p>
          <div className="flex flex-wrap items-center gap-2">
            <code data-testid="new-api-key" className="break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900">
              {state.key}
            </code>
            <CopyButton value={state.key} label="Copy key" />
          </div>
        </div>
      )}
    </div>
  );
}
