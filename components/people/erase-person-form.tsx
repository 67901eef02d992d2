import type { ActionState } from "@/components/ui/action-form";
import { ActionForm } from "@/components/ui/action-form";
import { InputField } from "@/components/ui/form";

/**
 * The erasure form (issue 45, lib/domain/erasure.ts): the person's e-mail address typed again as
 * the confirmation. `self`: the signed-in person erasing themselves (Profile); otherwise an admin
 * erasing a member (the member's page).
 */
export function ErasePersonForm({
  action,
  userId,
  self,
}: {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  userId: number;
  self: boolean;
}) {
  return (
    <>
      <p className="mb-3 text-sm text-slate-700">
        {self ? "Your account" : "This person's account"} is deactivated and {self ? "your" : "their"} name, e-mail, avatar and chat
        identity are removed. Answers are deleted (the fact of answering is kept, so participation stays true), votes keep only their
        choice, and report messages are deleted from the chat platform. This cannot be undone.
      </p>
      <ActionForm action={action} submitLabel="Erase permanently" pendingLabel="Erasing…" testId="erase-person-form">
        <input type="hidden" name="userId" value={userId} />
        <InputField
          id={`erase-confirm-${userId}`}
          label={self ? "Type your e-mail address to confirm" : "Type their e-mail address to confirm"}
          name="confirm"
          type="email"
          required
          autoComplete="off"
        />
      </ActionForm>
    </>
  );
}
