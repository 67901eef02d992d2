import { type FormEvent, startTransition } from "react";

/**
 * The `onSubmit` of a form bound to a server action with `useActionState` (client components):
 * prevents the native submit and runs `formAction` with the form's data in a transition. Not the
 * `action` prop: React resets a form after it, losing what was typed when the action answers an
 * error. With `confirm`, asks first and submits only when confirmed.
 */
export function submitKeepingValues(formAction: (data: FormData) => void, confirm?: string) {
  return (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (confirm && !window.confirm(confirm)) return;
    const data = new FormData(e.currentTarget);
    startTransition(() => formAction(data));
  };
}
