"use client";

import { useActionState, useState } from "react";
import { Button, LinkButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Checkbox, InputField, type RadioChoice, RadioChoices, SelectField, type SelectOption, TextareaField } from "@/components/ui/form";
import { boundField, type FormState, submittedChecked, submittedValue, submittedValues } from "@/components/ui/form-state";
import { submitKeepingValues } from "@/components/ui/submit-keeping-values";
import { LIMITS } from "@/lib/domain/limits";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** When a poll is posted: once now, or weekly on chosen days. */
const WHEN_CHOICES: ReadonlyArray<RadioChoice<"once" | "weekly">> = [
  { id: "when-once", value: "once", label: "Once, now" },
  { id: "when-weekly", value: "weekly", label: "Recurring, on chosen days" },
];

/** The choices of a question's type select. */
const QUESTION_TYPES = [
  { value: "multiple_choice", label: "Multiple choice" },
  { value: "open_ended", label: "Open-ended (free text)" },
];

/**
 * The poll form: name, questions (multiple-choice with one or several options and optionally
 * voters' own options, or open-ended; "Add a question" adds more), introduction, channel, how long
 * each broadcast stays open (minutes or hours), one-shot now or recurring (days, time, timezone),
 * anonymity and sharing the results with recipients after closing. Field names are those
 * `createPollAction` reads; errors show next to their field and what was typed stays.
 */
export function PollForm({ action, channels, timezone }: { action: Action; channels: SelectOption[]; timezone: string }) {
  const [state, formAction, pending] = useActionState(action, {});
  const [questions, setQuestions] = useState<number[]>([0]);
  const [types, setTypes] = useState<Record<number, string>>({});
  const [unit, setUnit] = useState("minutes");
  const [when, setWhen] = useState<"once" | "weekly">("once");
  const err = (name: string) => state.fieldErrors?.[name];
  return (
    <form className="space-y-4" data-testid="poll-form" onSubmit={submitKeepingValues(formAction)}>
      {state.error && <Alert>{state.error}</Alert>}
      {state.fieldErrors && !state.error && <Alert>Please correct the fields marked below.</Alert>}
      <InputField id="name" label="Name" required maxLength={LIMITS.name} {...boundField(state, "name")} />
      {questions.map((i, n) => {
        const type = types[i] ?? submittedValue(state, `q${i}-type`, "multiple_choice");
        const label = n === 0 ? "Question" : `Question ${n + 1}`;
        return (
          <fieldset key={i} className="space-y-3 rounded-md border border-slate-200 p-3" data-testid="poll-form-question">
            <legend className="px-1 text-sm font-semibold text-slate-800">{`Question ${n + 1} of ${questions.length}`}</legend>
            <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
              <InputField id={`q${i}-text`} label={label} required maxLength={LIMITS.questionText} {...boundField(state, `q${i}-text`)} />
              <SelectField
                id={`q${i}-type`}
                name={`q${i}-type`}
                label={n === 0 ? "Type of question" : `Type of question ${n + 1}`}
                options={QUESTION_TYPES}
                value={type}
                onChange={(e) => setTypes((t) => ({ ...t, [i]: e.target.value }))}
              />
            </div>
            {type === "multiple_choice" && (
              <>
                <TextareaField
                  id={`q${i}-choices`}
                  label={n === 0 ? "Choices (one per line, at least two)" : `Choices of question ${n + 1} (one per line, at least two)`}
                  rows={4}
                  required
                  {...boundField(state, `q${i}-choices`)}
                />
                <div className="flex flex-wrap gap-x-6 gap-y-2">
                  <Checkbox
                    id={`q${i}-several`}
                    name={`q${i}-several`}
                    label="Voters may choose several options"
                    defaultChecked={submittedChecked(state, `q${i}-several`, false)}
                  />
                  <Checkbox
                    id={`q${i}-own`}
                    name={`q${i}-own`}
                    label="Voters may add their own option"
                    defaultChecked={submittedChecked(state, `q${i}-own`, false)}
                  />
                </div>
              </>
            )}
            {n > 0 && (
              <Button variant="ghost" onClick={() => setQuestions((qs) => qs.filter((q) => q !== i))}>
                Remove question {n + 1}
              </Button>
            )}
          </fieldset>
        );
      })}
      {questions.length < LIMITS.questions && (
        <Button variant="secondary" onClick={() => setQuestions((qs) => [...qs, Math.max(...qs) + 1])}>
          Add a question
        </Button>
      )}
      <TextareaField id="p-intro" name="intro" label="Introduction (optional)" rows={2} defaultValue={submittedValue(state, "intro", "")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          id="channel"
          label="Channel"
          hint="The poll is posted here; the channel’s members can vote."
          options={[{ value: "", label: "Choose a channel…", disabled: true }, ...channels]}
          required
          {...boundField(state, "channel")}
        />
        <div className="grid grid-cols-[1fr_8rem] gap-2">
          <InputField
            id="duration"
            label={`Open for (${unit}, optional)`}
            type="number"
            min={1}
            max={unit === "hours" ? 8760 : 525600}
            inputMode="numeric"
            {...boundField(state, "duration")}
          />
          <SelectField
            id="duration_unit"
            name="duration_unit"
            label="Unit"
            options={["minutes", "hours"]}
            value={unit}
            onChange={(e) => setUnit(e.target.value)}
          />
        </div>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">When</legend>
        <RadioChoices name="when" choices={WHEN_CHOICES} value={when} onChange={setWhen} />
      </fieldset>
      {when === "weekly" && (
        <div className="space-y-3 rounded-md border border-slate-200 p-3">
          <fieldset aria-describedby={err("days") ? "days-error" : undefined}>
            <legend className="text-sm font-medium text-slate-800">Days</legend>
            <div className="mt-1 flex flex-wrap gap-4">
              {DAYS.map((d) => (
                <Checkbox
                  key={d}
                  id={`day-${d}`}
                  name="days"
                  value={d}
                  label={d}
                  defaultChecked={submittedValues(state, "days", ["Mon", "Tue", "Wed", "Thu", "Fri"]).includes(d)}
                />
              ))}
            </div>
            {err("days") && (
              <p id="days-error" className="text-xs text-red-700">
                {err("days")}
              </p>
            )}
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <InputField id="time" label="Time" type="time" required {...boundField(state, "time", "10:00")} />
            <InputField
              id="timezone"
              label="Timezone"
              hint="An IANA name such as Europe/Berlin."
              required
              {...boundField(state, "timezone", timezone)}
            />
          </div>
        </div>
      )}
      <Checkbox
        id="p-anonymous"
        name="anonymous"
        label="Anonymous: results show no voter names"
        defaultChecked={submittedChecked(state, "anonymous", false)}
      />
      <Checkbox
        id="p-share"
        name="share_results"
        label="Share the results with recipients after the poll closes"
        defaultChecked={submittedChecked(state, "share_results", false)}
      />
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
