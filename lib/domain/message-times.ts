/**
 * Instants in the texts people read (issue 41 item 9): a direct message names the time in its
 * reader's own timezone ("10:15 your time, Mon 30 Nov"); a channel message, read by several
 * people, names the zone it uses ("Mon 30 Nov, 10:15 Europe/Berlin"). Never an ISO or UTC stamp.
 * An invalid zone falls back to UTC (and then says "UTC" instead of "your time").
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { isValidTimezone } from "@/lib/domain/schedule";

/** "10:15 your time, Mon 30 Nov": `at` in the reader's IANA `timezone`. */
export function timeForReader(at: Date, timezone: string | null | undefined): string {
  const valid = isValidTimezone(timezone);
  const local = new TZDate(at, valid ? timezone : "UTC");
  return `${format(local, "HH:mm")} ${valid ? "your time" : "UTC"}, ${format(local, "EEE d MMM")}`;
}

/** "Mon 30 Nov, 10:15 Europe/Berlin": `at` in `timezone`, named (for a channel's readers). */
export function timeInZone(at: Date, timezone: string | null | undefined): string {
  const zone = isValidTimezone(timezone) ? timezone : "UTC";
  return `${format(new TZDate(at, zone), "EEE d MMM, HH:mm")} ${zone}`;
}
