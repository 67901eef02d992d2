"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/form";

type Action = (prev: { error?: string; ok?: boolean }, form: FormData) => Promise<{ error?: string; ok?: boolean }>;

/** Admin form: add a vacation / out-of-office range for a member. */
export function AbsenceForm({ action, members, today }: { action: Action; members: Array<{ id: number; name: string }>; today: string }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-3">
      {state.error && <Alert>{state.error}</Alert>}
      {state.ok && <Alert tone="success">Absence added.</Alert>}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Field id="a-user" label="Member">
          <Select id="a-user" name="userId" required defaultValue="">
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
        <Field id="a-kind" label="Kind">
          <Select id="a-kind" name="kind" defaultValue="vacation">
            <option value="vacation">Vacation</option>
            <option value="out_of_office">Out of office</option>
          </Select>
        </Field>
        <Field id="a-note" label="Note (optional)">
          <Input id="a-note" name="note" maxLength={200} />
        </Field>
        <Field id="a-start" label="First day">
          <Input id="a-start" name="startDate" type="date" required defaultValue={today} />
        </Field>
        <Field id="a-end" label="Last day">
          <Input id="a-end" name="endDate" type="date" required defaultValue={today} />
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
