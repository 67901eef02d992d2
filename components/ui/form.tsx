import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/components/ui/cn";

export const inputClass =
  "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-brand-600 disabled:bg-slate-100";

/** Label + control + optional hint/error, wired with ids for screen readers. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
  className,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("space-y-1", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** Styled text input. */
export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(inputClass, className)} {...props} />;
}

/** Styled select. */
export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(inputClass, className)} {...props} />;
}

/** Styled textarea. */
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(inputClass, className)} {...props} />;
}

type ChoiceProps = ComponentProps<"input"> & { id: string; label: ReactNode };

/** An input with its label on the right (checkbox or radio button). */
function LabelledChoice({ label, id, type, inputClass, labelClass, ...props }: ChoiceProps & { inputClass: string; labelClass: string }) {
  return (
    <div className="flex items-center gap-2">
      <input id={id} type={type} className={inputClass} {...props} />
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
    </div>
  );
}

/** Checkbox with its label on the right. */
export function Checkbox(props: ChoiceProps) {
  return (
    <LabelledChoice
      type="checkbox"
      inputClass="h-4 w-4 rounded border-slate-400 accent-brand-700"
      labelClass="text-sm text-slate-800"
      {...props}
    />
  );
}

/** Radio button with its label on the right. */
export function Radio(props: ChoiceProps) {
  return <LabelledChoice type="radio" inputClass="accent-brand-700" labelClass="text-sm" {...props} />;
}

/** A choice of a `Select`; `disabled` for a placeholder such as "Choose a member…". */
export type SelectOption = { value: string; label: string; disabled?: boolean };

/** The `<option>`s of a `Select`, one per choice (a plain string is its own value and label). */
export function SelectOptions({ options }: { options: ReadonlyArray<SelectOption | string> }) {
  return options.map((o) => {
    const { value, label, disabled } = typeof o === "string" ? { value: o, label: o, disabled: undefined } : o;
    return (
      <option key={value} value={value} disabled={disabled}>
        {label}
      </option>
    );
  });
}

/**
 * The aria attributes of a control inside a `Field` with this id: `aria-describedby` names the
 * hint and error paragraphs the `Field` shows (`<id>-hint`, `<id>-error`; undefined when neither),
 * `aria-invalid` is true while there is an error.
 */
export function fieldAria(id: string, hint: ReactNode, error: string | undefined) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": describedBy || undefined } as const;
}

type FieldRowProps = { id: string; label: ReactNode; hint?: ReactNode; error?: string; fieldClassName?: string };

/** One form row: a `Field` (label, hint, error) around an `Input` with the same id, wired by `fieldAria`. */
export function InputField({ id, label, hint, error, fieldClassName, ...input }: FieldRowProps & ComponentProps<"input">) {
  return (
    <Field id={id} label={label} hint={hint} error={error} className={fieldClassName}>
      <Input id={id} {...fieldAria(id, hint, error)} {...input} />
    </Field>
  );
}

/** One form row: a `Field` around a `Textarea` with the same id, wired by `fieldAria`. */
export function TextareaField({ id, label, hint, error, fieldClassName, ...textarea }: FieldRowProps & ComponentProps<"textarea">) {
  return (
    <Field id={id} label={label} hint={hint} error={error} className={fieldClassName}>
      <Textarea id={id} {...fieldAria(id, hint, error)} {...textarea} />
    </Field>
  );
}

/**
 * One form row: a `Field` around a `Select` with the same id, wired by `fieldAria`; its choices
 * are `options` (e.g. a leading `{ value: "", label: "All standups" }`), then any `children`.
 */
export function SelectField({
  id,
  label,
  hint,
  error,
  fieldClassName,
  options,
  children,
  ...select
}: FieldRowProps & ComponentProps<"select"> & { options: ReadonlyArray<SelectOption | string> }) {
  return (
    <Field id={id} label={label} hint={hint} error={error} className={fieldClassName}>
      <Select id={id} {...fieldAria(id, hint, error)} {...select}>
        <SelectOptions options={options} />
        {children}
      </Select>
    </Field>
  );
}

/** A radio button of a `RadioChoices` group. */
export type RadioChoice<V extends string> = { id: string; value: V; label: ReactNode };

/** The radio buttons of one controlled choice `name`: the one whose value is `value` is checked; `onChange` gets the picked value. */
export function RadioChoices<V extends string>({
  name,
  choices,
  value,
  onChange,
}: {
  name: string;
  choices: ReadonlyArray<RadioChoice<V>>;
  value: V;
  onChange: (value: V) => void;
}) {
  return choices.map((c) => (
    <Radio
      key={c.id}
      id={c.id}
      name={name}
      value={c.value}
      label={c.label}
      checked={value === c.value}
      onChange={() => onChange(c.value)}
    />
  ));
}
