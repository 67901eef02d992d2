"use client";

import { useActionState } from "react";
import { Button, LinkButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Checkbox, Field, Textarea } from "@/components/ui/form";
import { LIMITS } from "@/lib/domain/limits";

type Question = { id: number; text: string; answerType: string; choices: string[] };
type Action = (prev: { error?: string }, form: FormData) => Promise<{ error?: string }>;

/** The answers form of one check-in: a textarea per text question, radio buttons for multiple choice. */
export function AnswerForm({
  action,
  questions,
  initial,
  editing,
  allowAnonymous,
  cancelHref = "/my-checkins",
}: {
  action: Action;
  questions: Question[];
  initial: Record<number, string>;
  editing: boolean;
  allowAnonymous: boolean;
  /** Where Cancel leads; null hides it (the e-mailed answer link has nowhere to go back to). */
  cancelHref?: string | null;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-5">
      {state.error && <Alert>{state.error}</Alert>}
      {questions.map((q, i) =>
        q.answerType === "multiple_choice" && q.choices.length > 0 ? (
          <fieldset key={q.id} className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">
              {i + 1}. {q.text}
            </legend>
            <div className="flex flex-wrap gap-3">
              {q.choices.map((c, j) => (
                <div key={c} className="flex items-center gap-2">
                  <input
                    type="radio"
                    id={`answer-${q.id}-${j}`}
                    name={`answer-${q.id}`}
                    value={c}
                    defaultChecked={initial[q.id] === c}
                    required
                    className="accent-brand-700"
                  />
                  <label htmlFor={`answer-${q.id}-${j}`} className="text-sm">
                    {c}
                  </label>
                </div>
              ))}
            </div>
          </fieldset>
        ) : (
          <Field key={q.id} id={`answer-${q.id}`} label={`${i + 1}. ${q.text}`}>
            <Textarea
              id={`answer-${q.id}`}
              name={`answer-${q.id}`}
              rows={3}
              defaultValue={initial[q.id] ?? ""}
              required
              maxLength={LIMITS.answerText}
            />
          </Field>
        ),
      )}
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
