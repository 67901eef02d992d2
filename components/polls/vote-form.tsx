"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Checkbox, Field, Input, Radio, Textarea } from "@/components/ui/form";
import { type FormState, submittedValue, submittedValues } from "@/components/ui/form-state";
import { submitKeepingValues } from "@/components/ui/submit-keeping-values";

/** A question of the ballot as the form needs it, with the caller's current vote (`mine`). */
export type VoteFormQuestion = {
  id: number;
  text: string;
  answer_type: string;
  choices: string[];
  add_own_options: boolean;
  one_option_limit: boolean;
  mine: { choices: string[]; text: string | null };
};

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/**
 * The vote form of a poll broadcast: per multiple-choice question radio buttons (one option) or
 * checkboxes (several), plus "add your own option" when the question allows it; per open-ended
 * question a text area. Prefilled with the caller's vote, so voting again changes it. Errors show
 * next to their question; what was chosen survives an error (submitted through a transition).
 */
export function VoteForm({ action, questions, voted }: { action: Action; questions: VoteFormQuestion[]; voted: boolean }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form className="space-y-6" data-testid="vote-form" noValidate onSubmit={submitKeepingValues(formAction)}>
      {state.error && <Alert>{state.error}</Alert>}
      {state.ok && <Alert tone="success">Your vote is saved. You can change it while the poll is open.</Alert>}
      {questions.map((q) => {
        const name = `q-${q.id}`;
        const error = state.fieldErrors?.[name];
        const errorId = error ? `${name}-error` : undefined;
        if (q.answer_type !== "multiple_choice") {
          return (
            <Field key={q.id} id={name} label={q.text} error={error}>
              <Textarea
                id={name}
                name={name}
                rows={3}
                defaultValue={submittedValue(state, name, q.mine.text ?? "")}
                aria-invalid={error ? true : undefined}
                aria-describedby={errorId}
              />
            </Field>
          );
        }
        const own = q.mine.choices.filter((c) => !q.choices.includes(c));
        const options = [...q.choices, ...own];
        const chosen = submittedValues(state, name, q.mine.choices);
        return (
          <fieldset key={q.id} className="space-y-2" aria-describedby={errorId}>
            <legend className="text-sm font-medium text-slate-800">
              {q.text}
              <span className="ml-2 text-xs font-normal text-slate-600">{q.one_option_limit ? "(choose one)" : "(choose any)"}</span>
            </legend>
            {options.map((c, i) =>
              q.one_option_limit ? (
                <Radio key={c} id={`${name}-${i}`} name={name} value={c} label={c} defaultChecked={chosen.includes(c)} />
              ) : (
                <Checkbox key={c} id={`${name}-${i}`} name={name} value={c} label={c} defaultChecked={chosen.includes(c)} />
              ),
            )}
            {q.add_own_options && (
              <Field id={`${name}-own`} label="Or add your own option">
                <Input id={`${name}-own`} name={`${name}-own`} maxLength={200} defaultValue={submittedValue(state, `${name}-own`, "")} />
              </Field>
            )}
            {error && (
              <p id={errorId} className="text-xs text-red-700">
                {error}
              </p>
            )}
          </fieldset>
        );
      })}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : voted ? "Change my vote" : "Vote"}
      </Button>
    </form>
  );
}
