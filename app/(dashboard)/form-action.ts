import { revalidatePath } from "next/cache";
import type { ActionState } from "@/components/ui/action-form";
import { getActor } from "@/lib/auth/session";
import type { Actor } from "@/lib/domain/actor";
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

/** A path an action revalidates: a page's path, or `[path, "layout"]` for every page under that layout. */
export type RevalidateTarget = string | [string, "layout"];

/**
 * The steps of a signed-in dashboard form action: gets the actor (signed out: redirect to sign-in),
 * runs `run(actor)` through `formAction` (a domain error becomes the form's message), then
 * revalidates each of `revalidate` (also after an error; `[]` for none) and returns the form's state.
 */
export async function actorFormAction(
  revalidate: RevalidateTarget[],
  run: (actor: Actor) => Promise<ActionState | undefined>,
): Promise<ActionState> {
  const actor = await getActor();
  const result = await formAction(() => run(actor));
  for (const target of revalidate) {
    if (typeof target === "string") revalidatePath(target);
    else revalidatePath(target[0], target[1]);
  }
  return result;
}

/** A text field of a form ("" when absent). */
export function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}
