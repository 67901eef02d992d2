"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/form";
import { type FormState, submittedValue } from "@/components/ui/form-state";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/** Admin form: add a vacation / out-of-office range for a member. */
export function AbsenceForm({ action, members, today }: { action: Action; members: Array<{ id: number; name: string }>; today: string }) {
  const [state, formAction, pending] = useActionState(action, {} as FormState);
  const errors = state.fieldErrors ?? {};
  const described = (id: string, name: string) => (errors[name] ? { "aria-describedby": `${id}-error`, "aria-invalid": true } : {});
  return (
    <form action={formAction} className="space-y-3">
      {state.error && <Alert>{state.error}</Alert>}
      {state.ok && <Alert tone="success">Absence added.</Alert>}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Field id="a-user" label="Member" error={errors.userId}>
          <Select
            key={submittedValue(state, "userId", "")}
            id="a-user"
            name="userId"
            required
            defaultValue={submittedValue(state, "userId", "")}
            {...described("a-user", "userId")}
          >
            <option value="" disabled>
              Choose a member…
            </option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="a-kind" label="Kind" error={errors.kind}>
          <Select key={submittedValue(state, "kind", "")} id="a-kind" name="kind" defaultValue={submittedValue(state, "kind", "vacation")}>
            <option value="vacation">Vacation</option>
            <option value="out_of_office">Out of office</option>
          </Select>
        </Field>
        <Field id="a-note" label="Note (optional)" error={errors.note}>
          <Input
            id="a-note"
            name="note"
            maxLength={200}
            defaultValue={submittedValue(state, "note", "")}
            {...described("a-note", "note")}
          />
        </Field>
        <Field id="a-start" label="First day" error={errors.startDate}>
          <Input
            id="a-start"
            name="startDate"
            type="date"
            required
            defaultValue={submittedValue(state, "startDate", today)}
            {...described("a-start", "startDate")}
          />
        </Field>
        <Field id="a-end" label="Last day" error={errors.endDate}>
          <Input
            id="a-end"
            name="endDate"
            type="date"
            required
            defaultValue={submittedValue(state, "endDate", today)}
            {...described("a-end", "endDate")}
          />
        </Field>
        <div className="flex items-end">
          <Button type="submit" disabled={pending}>
            {pending ? "Adding…" : "Add absence"}
          </Button>
        </div>
      </div>
    </form>
  );
}
