"use client";

import { useActionState } from "react";
import { ABSENCE_KINDS } from "@/components/team/absence-line";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { InputField, SelectField } from "@/components/ui/form";
import { type FormState, submittedValue } from "@/components/ui/form-state";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/** Admin form: add a vacation / out-of-office range for a member. */
export function AbsenceForm({ action, members, today }: { action: Action; members: Array<{ id: number; name: string }>; today: string }) {
  const [state, formAction, pending] = useActionState(action, {} as FormState);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={formAction} className="space-y-3">
      {state.error && <Alert>{state.error}</Alert>}
      {state.ok && <Alert tone="success">Absence added.</Alert>}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <SelectField
          key={submittedValue(state, "userId", "")}
          id="a-user"
          name="userId"
          label="Member"
          error={errors.userId}
          options={[
            { value: "", label: "Choose a member…", disabled: true },
            ...members.map((m) => ({ value: String(m.id), label: m.name })),
          ]}
          required
          defaultValue={submittedValue(state, "userId", "")}
        />
        <SelectField
          key={submittedValue(state, "kind", "")}
          id="a-kind"
          name="kind"
          label="Kind"
          error={errors.kind}
          options={ABSENCE_KINDS}
          defaultValue={submittedValue(state, "kind", "vacation")}
        />
        <InputField
          id="a-note"
          name="note"
          label="Note (optional)"
          error={errors.note}
          maxLength={200}
          defaultValue={submittedValue(state, "note", "")}
        />
        <InputField
          id="a-start"
          name="startDate"
          label="First day"
          error={errors.startDate}
          type="date"
          required
          defaultValue={submittedValue(state, "startDate", today)}
        />
        <InputField
          id="a-end"
          name="endDate"
          label="Last day"
          error={errors.endDate}
          type="date"
          required
          defaultValue={submittedValue(state, "endDate", today)}
        />
        <div className="flex items-end">
          <Button type="submit" disabled={pending}>
            {pending ? "Adding…" : "Add absence"}
          </Button>
        </div>
      </div>
    </form>
  );
}
