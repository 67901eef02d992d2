"use client";

import { useActionState } from "react";
import { ABSENCE_KINDS } from "@/components/team/absence-line";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { InputField, SelectField } from "@/components/ui/form";
import { boundField, type FormState } from "@/components/ui/form-state";
import { submitKeepingValues } from "@/components/ui/submit-keeping-values";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/**
 * Admin form: add a vacation / out-of-office range for a member. Submitted through `onSubmit` + a
 * transition (not the `action` prop, after which React resets the form): the chosen member and
 * dates stay after an error.
 */
export function AbsenceForm({ action, members, today }: { action: Action; members: Array<{ id: number; name: string }>; today: string }) {
  const [state, formAction, pending] = useActionState(action, {} as FormState);
  return (
    <form className="space-y-3" data-testid="absence-form" onSubmit={submitKeepingValues(formAction)}>
      {state.error && <Alert>{state.error}</Alert>}
      {state.ok && <Alert tone="success">Absence added.</Alert>}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <SelectField
          id="a-user"
          label="Member"
          options={[
            { value: "", label: "Choose a member…", disabled: true },
            ...members.map((m) => ({ value: String(m.id), label: m.name })),
          ]}
          required
          {...boundField(state, "userId")}
        />
        <SelectField id="a-kind" label="Kind" options={ABSENCE_KINDS} {...boundField(state, "kind", "vacation")} />
        <InputField id="a-note" label="Note (optional)" maxLength={200} {...boundField(state, "note")} />
        <InputField id="a-start" label="First day" type="date" required {...boundField(state, "startDate", today)} />
        <InputField id="a-end" label="Last day" type="date" required {...boundField(state, "endDate", today)} />
        <div className="flex items-end">
          <Button type="submit" disabled={pending}>
            {pending ? "Adding…" : "Add absence"}
          </Button>
        </div>
      </div>
    </form>
  );
}
