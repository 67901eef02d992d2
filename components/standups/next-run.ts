/**
 * How the dashboard words a standup's next run (standup list and standup page): the instant in
 * the standup's timezone and in the viewer's, e.g. "Mon 23 Nov, 09:30 Europe/Berlin (08:30 your
 * time)". Time-zone maths comes from `@date-fns/tz`; `next_run_at` itself is computed by the
 * scheduler (lib/domain/asking-times.ts `refreshNextRunAt`).
 */
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { isValidTimezone } from "@/lib/domain/schedule";

/** The columns the next-run line reads; `wait_time` null = asked only when started. */
export type NextRunInput = {
  state: string;
  wait_time: number | null;
  next_run_at: Date | null;
  timezone: string;
};

/**
 * The next-run line of a standup for a viewer in `viewerTimezone` (IANA; invalid → UTC):
 * - "Paused" when paused; "Draft — not scheduled" for a draft;
 * - "Manual only — runs when started" when `wait_time` is null (no automatic asking);
 * - "Mon 23 Nov, 09:30 Europe/Berlin (08:30 your time)" — the viewer's part says the date too when
 *   it is another day there, and is left out when both zones show the same wall-clock time;
 * - "Not scheduled" when nothing is due (no days).
 */
export function describeNextRun(standup: NextRunInput, viewerTimezone: string): string {
  if (standup.state === "paused") return "Paused";
  if (standup.state === "draft") return "Draft — not scheduled";
  if (standup.wait_time === null) return "Manual only — runs when started";
  if (!standup.next_run_at) return "Not scheduled";
  const zone = isValidTimezone(standup.timezone) ? standup.timezone : "UTC";
  const viewer = isValidTimezone(viewerTimezone) ? viewerTimezone : "UTC";
  const there = new TZDate(standup.next_run_at, zone);
  const here = new TZDate(standup.next_run_at, viewer);
  const main = `${format(there, "EEE d MMM, HH:mm")} ${zone}`;
  if (format(there, "yyyy-MM-dd HH:mm") === format(here, "yyyy-MM-dd HH:mm")) return main;
  const sameDay = format(there, "yyyy-MM-dd") === format(here, "yyyy-MM-dd");
  return `${main} (${format(here, sameDay ? "HH:mm" : "EEE d MMM, HH:mm")} your time)`;
}
