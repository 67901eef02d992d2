"use client";

import { useActionState, useState } from "react";
import { Button, LinkButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Checkbox, Field, Input, Radio, Select, type SelectOption, SelectOptions, Textarea } from "@/components/ui/form";
import { DAY_NAMES } from "@/lib/domain/constants";
import { LIMITS } from "@/lib/domain/limits";

export type StandupFormValues = {
  name: string;
  questions: Array<{ text: string; choices: string[] }>;
  days: string[];
  time: string;
  timezone: string;
  broadcastChannel: string;
  memberSource: "users" | "sync";
  users: string[];
  syncChannel: string;
  isAnonymous: boolean;
  isConfidential: boolean;
};

type Action = (prev: { error?: string }, form: FormData) => Promise<{ error?: string }>;

/** Create/edit form of a standup: question editor, day picker, time + timezone, channel, members, privacy. */
export function StandupForm({
  action,
  initial,
  channels,
  members,
  timezones,
  submitLabel,
  cancelHref,
}: {
  action: Action;
  initial: StandupFormValues;
  channels: SelectOption[];
  members: SelectOption[];
  timezones: string[];
  submitLabel: string;
  cancelHref: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [questions, setQuestions] = useState(
    initial.questions.map((q) => ({ ...q, multiple: q.choices.length > 0, choicesText: q.choices.join("\n") })),
  );
  const [memberSource, setMemberSource] = useState(initial.memberSource);

  const serialized = JSON.stringify(
    questions.map((q) => ({
      text: q.text,
      choices: q.multiple
        ? q.choicesText
            .split("\n")
            .map((c) => c.trim())
            .filter(Boolean)
        : undefined,
    })),
  );

  function update(i: number, patch: Partial<(typeof questions)[number]>) {
    setQuestions((qs) => qs.map((q, j) => (j === i ? { ...q, ...patch } : q)));
  }
  function move(i: number, by: number) {
    setQuestions((qs) => {
      const next = [...qs];
      const [q] = next.splice(i, 1);
      next.splice(i + by, 0, q);
      return next;
    });
  }

  return (
    <form action={formAction} className="space-y-6">
      {state.error && <Alert>{state.error}</Alert>}
      <Field id="name" label="Name">
        <Input id="name" name="name" defaultValue={initial.name} required maxLength={LIMITS.name} />
      </Field>

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">Questions</legend>
        <input type="hidden" name="questions" value={serialized} />
        {questions.map((q, i) => (
          <div key={i} className="space-y-2 rounded-md border border-slate-200 p-3" data-testid="question-row">
            <Field id={`q-${i}`} label={`Question ${i + 1}`}>
              <Input
                id={`q-${i}`}
                value={q.text}
                onChange={(e) => update(i, { text: e.target.value })}
                required
                maxLength={LIMITS.questionText}
              />
            </Field>
            <Checkbox
              id={`q-${i}-mc`}
              label="Multiple choice"
              checked={q.multiple}
              onChange={(e) => update(i, { multiple: e.target.checked })}
            />
            {q.multiple && (
              <Field id={`q-${i}-choices`} label={`Choices for question ${i + 1} (one per line)`}>
                <Textarea
                  id={`q-${i}-choices`}
                  rows={3}
                  value={q.choicesText}
                  onChange={(e) => update(i, { choicesText: e.target.value })}
                />
              </Field>
            )}
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move question ${i + 1} up`}>
                Up
              </Button>
              <Button
                variant="secondary"
                disabled={i === questions.length - 1}
                onClick={() => move(i, 1)}
                aria-label={`Move question ${i + 1} down`}
              >
                Down
              </Button>
              <Button
                variant="ghost"
                disabled={questions.length === 1}
                onClick={() => setQuestions((qs) => qs.filter((_, j) => j !== i))}
                aria-label={`Remove question ${i + 1}`}
              >
                Remove
              </Button>
            </div>
          </div>
        ))}
        <Button
          variant="secondary"
          onClick={() => setQuestions((qs) => [...qs, { text: "", choices: [], multiple: false, choicesText: "" }])}
        >
          Add question
        </Button>
      </fieldset>

      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-900">Days</legend>
        <div className="flex flex-wrap gap-3">
          {DAY_NAMES.map((d) => (
            <Checkbox key={d} id={`day-${d}`} name="days" value={d} label={d} defaultChecked={initial.days.includes(d)} />
          ))}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="time" label="Time">
          <Input id="time" name="time" type="time" defaultValue={initial.time.slice(0, 5)} required />
        </Field>
        <Field id="timezone" label="Timezone">
          <Select id="timezone" name="timezone" defaultValue={initial.timezone}>
            {timezones.map((tz) => (
              <option key={tz} value={tz}>
                {tz}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      <Field id="broadcastChannel" label="Broadcast channel" hint="Reports are posted here.">
        <Select
          id="broadcastChannel"
          name="broadcastChannel"
          defaultValue={initial.broadcastChannel}
          required
          aria-describedby="broadcastChannel-hint"
        >
          <option value="">Choose a channel…</option>
          <SelectOptions options={channels} />
        </Select>
      </Field>

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">Members</legend>
        <div className="flex flex-wrap gap-4">
          <Radio
            id="src-users"
            name="memberSource"
            value="users"
            label="Pick members"
            checked={memberSource === "users"}
            onChange={() => setMemberSource("users")}
          />
          <Radio
            id="src-sync"
            name="memberSource"
            value="sync"
            label="Sync with a channel’s members"
            checked={memberSource === "sync"}
            onChange={() => setMemberSource("sync")}
          />
        </div>
        {memberSource === "users" ? (
          <div className="grid max-h-64 gap-2 overflow-y-auto rounded-md border border-slate-200 p-3 sm:grid-cols-2">
            {members.map((m) => (
              <Checkbox
                key={m.value}
                id={`member-${m.value}`}
                name="users"
                value={m.value}
                label={m.label}
                defaultChecked={initial.users.includes(m.value)}
              />
            ))}
          </div>
        ) : (
          <Field id="syncChannel" label="Channel to sync members from" hint="Defaults to the broadcast channel.">
            <Select id="syncChannel" name="syncChannel" defaultValue={initial.syncChannel} aria-describedby="syncChannel-hint">
              <option value="">Same as the broadcast channel</option>
              <SelectOptions options={channels} />
            </Select>
          </Field>
        )}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-semibold text-slate-900">Privacy</legend>
        <Checkbox
          id="isAnonymous"
          name="isAnonymous"
          label="Anonymous: reports are shown without names"
          defaultChecked={initial.isAnonymous}
        />
        <Checkbox
          id="isConfidential"
          name="isConfidential"
          label="Confidential: only you can read the reports"
          defaultChecked={initial.isConfidential}
        />
      </fieldset>

      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
        <LinkButton href={cancelHref} variant="secondary">
          Cancel
        </LinkButton>
      </div>
    </form>
  );
}
