import { formatDate } from "@/components/format";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import type { SelectOption } from "@/components/ui/form";
import type { AbsenceItem } from "@/lib/domain/absences";

/** The kinds of absence with their labels, in the order a `kind` select offers them. */
export const ABSENCE_KINDS: SelectOption[] = [
  { value: "vacation", label: "Vacation" },
  { value: "out_of_office", label: "Out of office" },
];

/**
 * One absence of a list: its kind as a badge ("… (calendar)" when a calendar feed provided it:
 * no "Remove" then, the feed's next refresh would bring it back), its first – last day (`"YYYY-MM-DD"`) and note, and,
 * with `remove`, a "Remove" button posting `absenceId` to `remove.action` (`remove.label` is the
 * button's accessible name).
 */
export function AbsenceLine({
  absence,
  testId,
  className,
  remove,
}: {
  absence: AbsenceItem;
  testId: string;
  className: string;
  remove?: { action: (form: FormData) => Promise<void>; label: string };
}) {
  const label = ABSENCE_KINDS.find((k) => k.value === absence.kind)?.label ?? "Out of office";
  const fromCalendar = absence.source === "calendar";
  const kind = fromCalendar ? `${label} (calendar)` : label;
  return (
    <li className={className} data-testid={testId}>
      <Badge tone="amber">{kind}</Badge>
      <span>
        {formatDate(absence.startDate)} – {formatDate(absence.endDate)}
        {absence.note && <span className="text-slate-600"> · {absence.note}</span>}
      </span>
      {remove && !fromCalendar && (
        <form action={remove.action}>
          <input type="hidden" name="absenceId" value={absence.id} />
          <Button type="submit" variant="ghost" className="min-h-8 px-2 py-1" aria-label={remove.label}>
            Remove
          </Button>
        </form>
      )}
    </li>
  );
}
