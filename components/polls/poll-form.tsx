"use client";

import { useActionState } from "react";
import { Button, LinkButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Checkbox, Field, Input, Select, type SelectOption, SelectOptions, Textarea } from "@/components/ui/form";
import { LIMITS } from "@/lib/domain/limits";

type Action = (prev: { error?: string }, form: FormData) => Promise<{ error?: string }>;

/** One-shot poll form: name, question, choices (one per line), channel, duration, anonymity. */
export function PollForm({ action, channels }: { action: Action; channels: SelectOption[] }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-4">
      {state.error && <Alert>{state.error}</Alert>}
      <Field id="p-name" label="Name">
        <Input id="p-name" name="name" required maxLength={LIMITS.name} />
      </Field>
      <Field id="p-question" label="Question">
        <Input id="p-question" name="question" required maxLength={LIMITS.questionText} />
      </Field>
      <Field id="p-choices" label="Choices (one per line, at least two)">
        <Textarea id="p-choices" name="choices" rows={4} required />
      </Field>
      <Field id="p-intro" label="Introduction (optional)">
        <Textarea id="p-intro" name="intro" rows={2} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="p-channel" label="Channel" hint="The poll is posted here; the channel’s members can vote.">
          <Select id="p-channel" name="channel" required defaultValue="" aria-describedby="p-channel-hint">
            <option value="" disabled>
              Choose a channel…
            </option>
            <SelectOptions options={channels} />
          </Select>
        </Field>
        <Field id="p-duration" label="Open for (minutes, optional)">
          <Input id="p-duration" name="duration" type="number" min={1} max={525600} inputMode="numeric" />
        </Field>
      </div>
      <Checkbox id="p-anonymous" name="anonymous" label="Anonymous: results show no voter names" />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Posting…" : "Create poll"}
        </Button>
        <LinkButton href="/polls" variant="secondary">
          Cancel
        </LinkButton>
      </div>
    </form>
  );
}
