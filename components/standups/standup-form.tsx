"use client";

import { useActionState, useState } from "react";
import { Button, LinkButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Checkbox, InputField, type RadioChoice, RadioChoices, SelectField, type SelectOption, TextareaField } from "@/components/ui/form";
import { boundField, type FormState, submittedChecked, submittedValues } from "@/components/ui/form-state";
import { submitKeepingValues } from "@/components/ui/submit-keeping-values";
import { ASKING_LIMITS, DAY_NAMES } from "@/lib/domain/constants";
import { LIMITS } from "@/lib/domain/limits";
import { type QuestionType, RATING_SCALE } from "@/lib/domain/question-types";

export type StandupFormValues = {
  name: string;
  /** `isBlocker`: a blocker question (its answers other than "no"/"none" are listed under Blockers). */
  questions: StandupFormQuestion[];
  days: string[];
  time: string;
  timezone: string;
  broadcastChannel: string;
  memberSource: "users" | "sync";
  users: string[];
  syncChannel: string;
  isAnonymous: boolean;
  isConfidential: boolean;
  /** Members may tick "Post this report anonymously" (non-anonymous standups). */
  allowAnonymousReports: boolean;
  /** Ask each member at `time` in their own timezone (members without one: the standup's). */
  personalised: boolean;
  /** "auto": asked at the scheduled time plus `waitTime` minutes; "manual": only when started (wait_time null). */
  askingMode: "auto" | "manual";
  /** Whole numbers as typed in the form; `responseWindowMinutes` "" = until the next run or 24 h. */
  waitTime: string;
  reminderCount: string;
  reminderAfterMinutes: string;
  responseWindowMinutes: string;
  lateAnswerDays: string;
};

/**
 * A question of the form: text, type (lib/domain/question-types.ts), choices (multiple choice and
 * multi-select), `optional`, the rating scale (`scale` absent: 1–5 without labels), blocker flag.
 */
export type StandupFormQuestion = {
  text: string;
  answerType?: QuestionType;
  choices: string[];
  optional?: boolean;
  scale?: { min: number; max: number; labels: string[] } | null;
  isBlocker: boolean;
};

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/** The answer types offered by the question editor. */
const ANSWER_TYPES: ReadonlyArray<{ value: QuestionType; label: string }> = [
  { value: "text", label: "Free text" },
  { value: "multiple_choice", label: "Multiple choice (pick one)" },
  { value: "multi_select", label: "Multi-select (pick any)" },
  { value: "rating", label: "Rating scale" },
  { value: "number", label: "Number" },
];

/** The editor's state of one question (texts as typed). */
type EditedQuestion = {
  text: string;
  type: QuestionType;
  choicesText: string;
  optional: boolean;
  isBlocker: boolean;
  scaleMin: string;
  scaleMax: string;
  labelsText: string;
};

function toEdited(q: StandupFormQuestion): EditedQuestion {
  return {
    text: q.text,
    type: q.answerType ?? (q.choices.length > 0 ? "multiple_choice" : "text"),
    choicesText: q.choices.join("\n"),
    optional: q.optional ?? false,
    isBlocker: q.isBlocker,
    scaleMin: String(q.scale?.min ?? RATING_SCALE.defaultMin),
    scaleMax: String(q.scale?.max ?? RATING_SCALE.defaultMax),
    labelsText: (q.scale?.labels ?? []).join("\n"),
  };
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((c) => c.trim())
    .filter(Boolean);

/** The question as the server action reads it (JSON in the hidden `questions` field). */
function serializeQuestion(q: EditedQuestion) {
  return {
    text: q.text,
    isBlocker: q.isBlocker,
    answerType: q.type,
    optional: q.optional,
    choices: q.type === "multiple_choice" || q.type === "multi_select" ? lines(q.choicesText) : undefined,
    scale: q.type === "rating" ? { min: Number(q.scaleMin), max: Number(q.scaleMax), labels: lines(q.labelsText) } : undefined,
  };
}

/** A message under a group of fields (fieldset), announced with the group. */
function GroupError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-xs text-red-700">
      {message}
    </p>
  ) : null;
}

/** How a standup asks: at its scheduled time, or only when started. */
const ASKING_MODES: ReadonlyArray<RadioChoice<StandupFormValues["askingMode"]>> = [
  { id: "mode-auto", value: "auto", label: "Automatically at the scheduled time" },
  { id: "mode-manual", value: "manual", label: "Manual only: members are asked when someone starts it" },
];

/** Where a standup's members come from: picked people, or a channel's members. */
const MEMBER_SOURCES: ReadonlyArray<RadioChoice<StandupFormValues["memberSource"]>> = [
  { id: "src-users", value: "users", label: "Pick members" },
  { id: "src-sync", value: "sync", label: "Sync with a channel’s members" },
];

/** The whole-number fields of the "Asking" group, in form order; `autoOnly`: shown only when asked automatically. */
const ASKING_FIELDS: ReadonlyArray<{
  name: "waitTime" | "reminderCount" | "reminderAfterMinutes" | "responseWindowMinutes" | "lateAnswerDays";
  label: string;
  hint: string;
  min: number;
  max: number;
  required?: false;
  autoOnly?: true;
}> = [
  {
    name: "waitTime",
    label: "Minutes to wait after the scheduled time",
    hint: "0 asks at the scheduled time.",
    min: 0,
    max: ASKING_LIMITS.maxWaitTime,
    autoOnly: true,
  },
  {
    name: "reminderCount",
    label: "Number of reminders",
    hint: `0 to ${ASKING_LIMITS.maxReminders}; 0 sends none.`,
    min: 0,
    max: ASKING_LIMITS.maxReminders,
  },
  {
    name: "reminderAfterMinutes",
    label: "Minutes before each reminder",
    hint: "Counted from asking, then between reminders.",
    min: 1,
    max: ASKING_LIMITS.maxReminderAfterMinutes,
  },
  {
    name: "responseWindowMinutes",
    label: "Response window (minutes)",
    hint: "Leave blank: open until the next run or 24 hours.",
    min: 1,
    max: ASKING_LIMITS.maxResponseWindowMinutes,
    required: false,
  },
  {
    name: "lateAnswerDays",
    label: "Late answers allowed for (days)",
    hint: "0: no answers after the window closes.",
    min: 0,
    max: ASKING_LIMITS.maxLateAnswerDays,
  },
];

/**
 * Create/edit form of a standup: question editor, day picker, time + timezone, asking mode,
 * reminders, response window and late answers, channel, members, privacy.
 */
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
  const [state, formAction, pending] = useActionState(action, {} as FormState);
  const errors = state.fieldErrors ?? {};
  const days = submittedValues(state, "days", initial.days);
  const users = submittedValues(state, "users", initial.users);
  const [questions, setQuestions] = useState(initial.questions.map(toEdited));
  const [memberSource, setMemberSource] = useState(initial.memberSource);
  const [askingMode, setAskingMode] = useState(initial.askingMode);
  // The stored zone stays selectable (and selected) even when the runtime lists it under another name.
  const zones = timezones.includes(initial.timezone) ? timezones : [initial.timezone, ...timezones];

  const serialized = JSON.stringify(questions.map(serializeQuestion));

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
    <form className="space-y-6" onSubmit={submitKeepingValues(formAction)}>
      {(state.error || state.fieldErrors) && <Alert>{state.error ?? "Please correct the fields marked below."}</Alert>}
      <InputField id="name" label="Name" {...boundField(state, "name", initial.name)} required maxLength={LIMITS.name} />

      <fieldset className="space-y-3" aria-describedby={errors.questions ? "questions-error" : undefined}>
        <legend className="text-sm font-semibold text-slate-900">Questions</legend>
        <GroupError id="questions-error" message={errors.questions} />
        <input type="hidden" name="questions" value={serialized} />
        {questions.map((q, i) => (
          <div key={i} className="space-y-2 rounded-md border border-slate-200 p-3" data-testid="question-row">
            <InputField
              id={`q-${i}`}
              label={`Question ${i + 1}`}
              value={q.text}
              onChange={(e) => update(i, { text: e.target.value })}
              required
              maxLength={LIMITS.questionText}
            />
            <SelectField
              id={`q-${i}-type`}
              label={`Answer type of question ${i + 1}`}
              options={ANSWER_TYPES}
              value={q.type}
              onChange={(e) => update(i, { type: e.target.value as QuestionType })}
            />
            <Checkbox
              id={`q-${i}-optional`}
              label="Optional: members may leave it empty (nothing to report)"
              checked={q.optional}
              onChange={(e) => update(i, { optional: e.target.checked })}
            />
            <Checkbox
              id={`q-${i}-blocker`}
              label="Blocker question: answers other than “no” or “none” are listed under Blockers"
              checked={q.isBlocker}
              onChange={(e) => update(i, { isBlocker: e.target.checked })}
            />
            {(q.type === "multiple_choice" || q.type === "multi_select") && (
              <TextareaField
                id={`q-${i}-choices`}
                label={`Choices for question ${i + 1} (one per line)`}
                hint="At least two choices."
                rows={3}
                value={q.choicesText}
                error={errors[`q-${i}-choices`]}
                onChange={(e) => update(i, { choicesText: e.target.value })}
              />
            )}
            {q.type === "rating" && (
              <div className="grid gap-3 sm:grid-cols-3">
                <InputField
                  id={`q-${i}-min`}
                  label="Lowest rating"
                  type="number"
                  inputMode="numeric"
                  min={RATING_SCALE.minLowest}
                  max={RATING_SCALE.maxLowest}
                  step={1}
                  value={q.scaleMin}
                  onChange={(e) => update(i, { scaleMin: e.target.value })}
                />
                <InputField
                  id={`q-${i}-max`}
                  label="Highest rating"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={RATING_SCALE.maxLowest + RATING_SCALE.maxPoints - 1}
                  step={1}
                  value={q.scaleMax}
                  onChange={(e) => update(i, { scaleMax: e.target.value })}
                />
                <TextareaField
                  id={`q-${i}-scale`}
                  label={`Labels for question ${i + 1} (one per point, optional)`}
                  hint="e.g. Awful, Bad, Okay, Good, Great on separate lines."
                  rows={3}
                  value={q.labelsText}
                  error={errors[`q-${i}-scale`]}
                  onChange={(e) => update(i, { labelsText: e.target.value })}
                />
              </div>
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
        <Button variant="secondary" onClick={() => setQuestions((qs) => [...qs, toEdited({ text: "", choices: [], isBlocker: false })])}>
          Add question
        </Button>
      </fieldset>

      <fieldset aria-describedby={errors.days ? "days-error" : undefined}>
        <legend className="mb-2 text-sm font-semibold text-slate-900">Days</legend>
        <div className="flex flex-wrap gap-3">
          {DAY_NAMES.map((d) => (
            <Checkbox key={d} id={`day-${d}`} name="days" value={d} label={d} defaultChecked={days.includes(d)} />
          ))}
        </div>
        <GroupError id="days-error" message={errors.days} />
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <InputField id="time" label="Time" type="time" {...boundField(state, "time", initial.time.slice(0, 5))} required />
        <SelectField id="timezone" label="Timezone" options={zones} {...boundField(state, "timezone", initial.timezone)} />
      </div>
      <Checkbox
        id="personalised"
        name="personalised"
        label="Ask each member at this time in their own time zone"
        defaultChecked={submittedChecked(state, "personalised", initial.personalised)}
      />

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">Asking</legend>
        <div className="flex flex-wrap gap-4">
          <RadioChoices name="askingMode" choices={ASKING_MODES} value={askingMode} onChange={setAskingMode} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {ASKING_FIELDS.filter((f) => askingMode === "auto" || !f.autoOnly).map((f) => (
            <InputField
              key={f.name}
              id={f.name}
              label={f.label}
              hint={f.hint}
              type="number"
              inputMode="numeric"
              min={f.min}
              max={f.max}
              step={1}
              required={f.required ?? true}
              {...boundField(state, f.name, initial[f.name])}
            />
          ))}
        </div>
      </fieldset>

      <SelectField
        id="broadcastChannel"
        label="Broadcast channel"
        hint="Reports are posted here."
        options={[{ value: "", label: "Choose a channel…" }, ...channels]}
        {...boundField(state, "broadcastChannel", initial.broadcastChannel)}
        required
      />

      <fieldset className="space-y-3" aria-describedby={errors.users ? "users-error" : undefined}>
        <legend className="text-sm font-semibold text-slate-900">Members</legend>
        <GroupError id="users-error" message={errors.users} />
        <div className="flex flex-wrap gap-4">
          <RadioChoices name="memberSource" choices={MEMBER_SOURCES} value={memberSource} onChange={setMemberSource} />
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
                defaultChecked={users.includes(m.value)}
              />
            ))}
          </div>
        ) : (
          <SelectField
            id="syncChannel"
            label="Channel to sync members from"
            hint="Defaults to the broadcast channel."
            options={[{ value: "", label: "Same as the broadcast channel" }, ...channels]}
            {...boundField(state, "syncChannel", initial.syncChannel)}
          />
        )}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-semibold text-slate-900">Privacy</legend>
        <Checkbox
          id="isAnonymous"
          name="isAnonymous"
          label="Anonymous: reports are shown without names"
          defaultChecked={submittedChecked(state, "isAnonymous", initial.isAnonymous)}
        />
        <Checkbox
          id="allowAnonymousReports"
          name="allowAnonymousReports"
          label="Let members post a report anonymously (when the standup is not anonymous)"
          defaultChecked={submittedChecked(state, "allowAnonymousReports", initial.allowAnonymousReports)}
        />
        <Checkbox
          id="isConfidential"
          name="isConfidential"
          label="Confidential: only you can read the reports"
          defaultChecked={submittedChecked(state, "isConfidential", initial.isConfidential)}
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
