/**
 * The state a dashboard form action returns, so a form keeps what the person typed after an
 * error (React resets uncontrolled fields after an action: the form renders `values` back as
 * defaults) and shows each message next to its field.
 */
import type { z } from "zod";

export type FormState = {
  /** A message about the whole form (shown at the top). */
  error?: string;
  /** Messages per field name, written for people. */
  fieldErrors?: Record<string, string>;
  /** What was submitted, by field name (multi-valued fields as arrays). */
  values?: Record<string, string | string[]>;
  ok?: boolean;
};

/** The submitted values of a form by field name (repeated names become arrays). */
export function formValues(form: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith("$ACTION")) continue;
    const all = form.getAll(key).map(String);
    out[key] = all.length > 1 ? all : (all[0] ?? "");
  }
  return out;
}

/** The first message of each top-level field of a zod error. */
export function zodFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "");
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}

/** A submitted single value, else the fallback. */
export function submittedValue(state: FormState, name: string, fallback: string): string {
  const v = state.values?.[name];
  return typeof v === "string" ? v : Array.isArray(v) ? (v[0] ?? fallback) : fallback;
}

/** Submitted multi-values (checkbox groups), else the fallback. */
export function submittedValues(state: FormState, name: string, fallback: string[]): string[] {
  if (!state.values) return fallback;
  const v = state.values[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** A submitted checkbox ("on"), else the fallback. */
export function submittedChecked(state: FormState, name: string, fallback: boolean): boolean {
  return state.values ? state.values[name] === "on" : fallback;
}

/**
 * The props that tie a form row (`InputField`, `SelectField`, `TextareaField`) to an action's
 * state: its `name`, its `error` message, and as `defaultValue` what was submitted (else
 * `fallback`), so what was typed survives an error.
 */
export function boundField(state: FormState, name: string, fallback = ""): { name: string; error?: string; defaultValue: string } {
  return { name, error: state.fieldErrors?.[name], defaultValue: submittedValue(state, name, fallback) };
}
