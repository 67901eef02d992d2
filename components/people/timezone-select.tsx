import { timezoneList } from "@/components/standups/form-options";
import { Field, Select } from "@/components/ui/form";
import { isValidTimezone } from "@/lib/domain/schedule";

/** A labelled select of every IANA timezone the runtime knows (UTC first). */
export function TimezoneSelect({
  id,
  name = "timezone",
  label = "Timezone",
  defaultValue = "UTC",
}: {
  id: string;
  name?: string;
  label?: string;
  defaultValue?: string;
}) {
  const known = timezoneList();
  // A zone this runtime's list calls by another name (e.g. Asia/Kolkata vs Asia/Calcutta) stays selectable.
  const zones = known.includes(defaultValue) || !isValidTimezone(defaultValue) ? known : [defaultValue, ...known];
  return (
    <Field id={id} label={label}>
      <Select id={id} name={name} defaultValue={zones.includes(defaultValue) ? defaultValue : "UTC"}>
        {zones.map((z) => (
          <option key={z} value={z}>
            {z.replaceAll("_", " ")}
          </option>
        ))}
      </Select>
    </Field>
  );
}
