"use client";

import { useActionState } from "react";
import { Button, LinkButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Checkbox, Field, Input, Radio, Textarea } from "@/components/ui/form";
import { LIMITS } from "@/lib/domain/limits";
import { type FormQuestion, splitMultiSelect } from "@/lib/domain/question-types";

type Action = (prev: { error?: string }, form: FormData) => Promise<{ error?: string }>;

const OPTIONAL_HINT = "Optional: leave it empty if there is nothing to report.";

/**
 * Activity offered on the "what did you do" question (issue 48; lib/domain/activity-suggestions.ts):
 * the question it pre-fills, the "- title (link)" lines, and why sources failed.
 */
export type AnswerActivity = { questionId: number; text: string; errors: string[]; fetched: boolean };

/** Under the pre-filled question: where the text came from, that nothing is sent unasked, and failing sources. */
function ActivityNote({ activity }: { activity: AnswerActivity }) {
  return (
    <div className="mt-1 space-y-1 text-xs text-slate-600" data-testid="activity-note">
      {activity.text ? (
        <p>Pre-filled from your connected activity: edit or delete any line. Nothing is sent until you send the report.</p>
      ) : (
        !activity.fetched && <p>Your connected activity is still being read: reload the page in a moment to have it pre-filled.</p>
      )}
      {activity.errors.map((e) => (
        <p key={e} className="text-amber-800" data-testid="activity-error">
          No suggestion from {e}
        </p>
      ))}
    </div>
  );
}

/** A group of radio buttons or checkboxes under the question as its legend. */
function ChoiceGroup({ q, n, children }: { q: FormQuestion; n: number; children: React.ReactNode }) {
  return (
    <fieldset className="space-y-2" data-testid={`question-${q.answerType}`}>
      <legend className="text-sm font-medium text-slate-800">
        {n}. {q.text}
        {q.optional && <span className="font-normal text-slate-600"> (optional)</span>}
      </legend>
      <div className="flex flex-wrap gap-3">{children}</div>
      {q.answerType === "multi_select" && <p className="text-xs text-slate-600">Pick any that apply.</p>}
      {q.optional && <p className="text-xs text-slate-600">{OPTIONAL_HINT}</p>}
    </fieldset>
  );
}

/**
 * One question's input, by type (issue 41 item 12): radio buttons for multiple choice and rating
 * (the scale's points), checkboxes for multi-select (each picked choice is sent under the same
 * name), a number input for number, a textarea for text. Optional questions are not `required`.
 */
function QuestionInput({
  q,
  n,
  initial,
  activity,
}: {
  q: FormQuestion;
  n: number;
  initial: string | undefined;
  activity?: AnswerActivity;
}) {
  const name = `answer-${q.id}`;
  const required = !q.optional;
  if ((q.answerType === "multiple_choice" && q.choices.length > 0) || q.answerType === "rating") {
    const options = q.answerType === "rating" ? q.scale : q.choices.map((c) => ({ value: c, label: c }));
    return (
      <ChoiceGroup q={q} n={n}>
        {options.map((o, j) => (
          <Radio
            key={o.value}
            id={`${name}-${j}`}
            name={name}
            value={o.value}
            label={o.label}
            defaultChecked={initial === o.value}
            required={required}
          />
        ))}
      </ChoiceGroup>
    );
  }
  if (q.answerType === "multi_select") {
    const picked = new Set(splitMultiSelect(initial ?? ""));
    return (
      <ChoiceGroup q={q} n={n}>
        {q.choices.map((c, j) => (
          <Checkbox key={c} id={`${name}-${j}`} name={name} value={c} label={c} defaultChecked={picked.has(c)} />
        ))}
      </ChoiceGroup>
    );
  }
  const label = `${n}. ${q.text}${q.optional ? " (optional)" : ""}`;
  const hint = q.optional ? OPTIONAL_HINT : undefined;
  if (q.answerType === "number" || q.answerType === "numeric") {
    return (
      <Field id={name} label={label} hint={hint}>
        <Input id={name} name={name} type="number" step="any" inputMode="decimal" defaultValue={initial ?? ""} required={required} />
      </Field>
    );
  }
  const prefill = initial === undefined && activity ? activity.text.slice(0, LIMITS.answerText) : "";
  return (
    <Field id={name} label={label} hint={hint}>
      <Textarea
        id={name}
        name={name}
        rows={prefill ? Math.min(12, prefill.split("\n").length + 1) : 3}
        defaultValue={initial ?? prefill}
        required={required}
        maxLength={LIMITS.answerText}
        data-prefilled={prefill ? "activity" : undefined}
      />
      {activity && initial === undefined && <ActivityNote activity={activity} />}
    </Field>
  );
}

/** The answers form of one check-in: one input per question, by its type (`QuestionInput`). */
export function AnswerForm({
  action,
  questions,
  initial,
  editing,
  allowAnonymous,
  cancelHref = "/my-checkins",
  activity,
}: {
  action: Action;
  questions: FormQuestion[];
  initial: Record<number, string>;
  editing: boolean;
  allowAnonymous: boolean;
  /** Where Cancel leads; null hides it (the e-mailed answer link has nowhere to go back to). */
  cancelHref?: string | null;
  /** The activity pre-fill of the "what did you do" question, if the person has connections. */
  activity?: AnswerActivity | null;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-5">
      {state.error && <Alert>{state.error}</Alert>}
      {questions.map((q, i) => (
        <QuestionInput key={q.id} q={q} n={i + 1} initial={initial[q.id]} activity={activity?.questionId === q.id ? activity : undefined} />
      ))}
      {allowAnonymous && !editing && <Checkbox id="anonymous" name="anonymous" label="Post this report anonymously" />}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Sending…" : editing ? "Save changes" : "Send report"}
        </Button>
        {cancelHref && (
          <LinkButton href={cancelHref} variant="secondary">
            Cancel
          </LinkButton>
        )}
      </div>
    </form>
  );
}
