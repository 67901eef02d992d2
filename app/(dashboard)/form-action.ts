import type { ActionState } from "@/components/ui/action-form";
import { DomainError } from "@/lib/domain/errors";

/**
 * Runs a server action's domain call and turns domain errors into the form's error message (other
 * errors propagate to the error page).
 */
export async function formAction(run: () => Promise<ActionState | undefined>): Promise<ActionState> {
  try {
    return (await run()) ?? {};
  } catch (err) {
    if (err instanceof DomainError) return { error: err.message };
    throw err;
  }
}

/** A text field of a form ("" when absent). */
export function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}
