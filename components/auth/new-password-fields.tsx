/**
 * The "new password" + "repeat it" pair of the setup, invitation, reset and profile forms.
 * Field names default to `password` / `passwordRepeat` (what those server actions read); the
 * length bounds are the domain's (`checkNewPassword`, lib/domain/people.ts).
 */
import { Field, Input, InputField } from "@/components/ui/form";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/domain/constants";

export function NewPasswordFields(props: {
  label?: string;
  repeatLabel?: string;
  /** id and name of the password input. */
  id?: string;
  name?: string;
  /** id and name of the repeat input. */
  repeatId?: string;
  repeatName?: string;
}) {
  const { label = "Password", repeatLabel = "Repeat the password", id = "password", name = "password" } = props;
  const { repeatId = "passwordRepeat", repeatName = "passwordRepeat" } = props;
  const bounds = { required: true, minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, autoComplete: "new-password" };
  return (
    <>
      <Field id={id} label={label} hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}>
        <Input id={id} name={name} type="password" aria-describedby={`${id}-hint`} {...bounds} />
      </Field>
      <InputField id={repeatId} label={repeatLabel} name={repeatName} type="password" {...bounds} />
    </>
  );
}
