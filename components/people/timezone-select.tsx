import { timezoneList } from "@/components/standups/form-options";
import { SelectField } from "@/components/ui/form";

/**
 * A labelled select of every IANA timezone (UTC first; `timezoneOptions`): the current value stays
 * selected even when the runtime lists it under another name; an invalid value falls back to UTC.
 */
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
  // Every runtime zone, canonical names ICU lists under an alias (Asia/Kolkata) and the current value.
  const zones = timezoneList(defaultValue);
  return (
    <SelectField
      id={id}
      name={name}
      label={label}
      options={zones.map((z) => ({ value: z, label: z.replaceAll("_", " ") }))}
      defaultValue={zones.includes(defaultValue) ? defaultValue : "UTC"}
    />
  );
}
