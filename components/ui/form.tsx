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

/** A choice of a `Select`. */
export type SelectOption = { value: string; label: string };

/** The `<option>`s of a `Select`, one per choice. */
export function SelectOptions({ options }: { options: SelectOption[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}
