"use client";

import { type ReactNode, useActionState } from "react";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { submitKeepingValues } from "@/components/ui/submit-keeping-values";

/**
 * What a server action behind an `ActionForm` answers: an error, a success message, links to
 * show once (each with a copy button: invitation and reset links when no e-mail is configured),
 * and detail lines (e.g. per-line outcomes of a bulk invite).
 */
export type ActionState = { error?: string; ok?: string; links?: Array<{ label: string; url: string }>; details?: string[] };

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;

/**
 * A form bound to a server action with `useActionState`: renders `children` (the fields, usually
 * server-rendered), the submit button, and the action's answer above them. It submits through
 * `onSubmit` + a transition rather than the `action` prop, because React resets a form after an
 * `action` prop runs: what was typed must survive an error message.
 */
export function ActionForm({
  action,
  submitLabel,
  pendingLabel,
  children,
  variant = "primary",
  className,
  testId,
  confirm,
  submitAriaLabel,
}: {
  action: Action;
  submitLabel: string;
  pendingLabel?: string;
  children?: ReactNode;
  variant?: ButtonVariant;
  className?: string;
  testId?: string;
  /** Asked with window.confirm before submitting (destructive actions). */
  confirm?: string;
  submitAriaLabel?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form className={className ?? "space-y-3"} data-testid={testId} onSubmit={submitKeepingValues(formAction, confirm)}>
      {state.error && <Alert>{state.error}</Alert>}
      {state.ok && <Alert tone="success">{state.ok}</Alert>}
      {state.links && state.links.length > 0 && (
        <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="one-time-links">
          <p className="text-sm font-medium text-amber-900">Shown only now: copy and send each link yourself.</p>
          <ul className="space-y-2">
            {state.links.map((l) => (
              <li key={l.url} className="flex flex-wrap items-center gap-2">
                <span className="text-sm text-slate-800">{l.label}</span>
                <input
                  readOnly
                  value={l.url}
                  aria-label={`Link for ${l.label}`}
                  className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs"
                  data-testid="one-time-link"
                />
                <CopyButton value={l.url} label="Copy link" />
              </li>
            ))}
          </ul>
        </div>
      )}
      {state.details && state.details.length > 0 && (
        <ul className="list-inside list-disc text-sm text-slate-700" data-testid="action-details">
          {state.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {children}
      <Button type="submit" variant={variant} disabled={pending} aria-label={submitAriaLabel}>
        {pending ? (pendingLabel ?? "Saving…") : submitLabel}
      </Button>
    </form>
  );
}
