/**
 * The IANA timezone names a picker offers (standup form, profile, people): every zone the runtime
 * lists (`Intl.supportedValuesOf("timeZone")`), the current canonical names ICU still lists under an
 * older alias (ICU lists "Asia/Calcutta", not "Asia/Kolkata"), and the value currently stored — so
 * opening and saving a form never replaces a zone nobody touched.
 */
import { isValidTimezone } from "@/lib/domain/schedule";

/** Current IANA names whose older alias is what ICU lists (alias → canonical). */
const CANONICAL_NAMES: Record<string, string> = {
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Europe/Kiev": "Europe/Kyiv",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "America/Godthab": "America/Nuuk",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Truk": "Pacific/Chuuk",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Louisville": "America/Kentucky/Louisville",
  "Asia/Ulan_Bator": "Asia/Ulaanbaatar",
  "Asia/Thimbu": "Asia/Thimphu",
  "Asia/Dacca": "Asia/Dhaka",
  "Africa/Asmera": "Africa/Asmara",
};

/**
 * Timezone names for a picker: "UTC" first, then every zone of the runtime plus the canonical
 * names of `CANONICAL_NAMES` (when the runtime accepts them) plus `current` (when it is a valid
 * zone), de-duplicated and sorted. An invalid or empty `current` is left out.
 */
export function timezoneOptions(current?: string | null): string[] {
  const listed = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const zones = new Set<string>(listed);
  for (const zone of listed) {
    const canonical = CANONICAL_NAMES[zone];
    if (canonical && isValidTimezone(canonical)) zones.add(canonical);
  }
  if (current && isValidTimezone(current)) zones.add(current);
  zones.delete("UTC");
  return ["UTC", ...[...zones].sort()];
}
