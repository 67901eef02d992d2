import { timezoneList } from "@/components/standups/form-options";
import { Field, Select } from "@/components/ui/form";

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
  const zones = timezoneList();
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
