/**
 * Calendar helpers for the seed: local dates as "YYYY-MM-DD" keys, weekday names ("Mon".."Sun")
 * and the UTC instant of a local wall-clock time in an IANA timezone (DST-safe via @date-fns/tz).
 */
import { TZDate } from "@date-fns/tz";

/** A local calendar date, "YYYY-MM-DD". */
export type DateKey = string;

export const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const MS_PER_DAY = 86_400_000;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** The local date of `instant` in timezone `tz`. */
export function localDateKey(instant: Date, tz: string): DateKey {
  const d = new TZDate(instant.getTime(), tz);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `key` shifted by `days` calendar days (negative goes back). */
export function addDays(key: DateKey, days: number): DateKey {
  return new Date(Date.parse(`${key}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Weekday name of a local date. */
export function weekdayOf(key: DateKey): Weekday {
  return WEEKDAYS[new Date(`${key}T00:00:00Z`).getUTCDay()] as Weekday;
}

/** Whole days from `a` to `b` (positive when b is later). */
export function daysBetween(a: DateKey, b: DateKey): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / MS_PER_DAY);
}

/** The value Prisma expects for a `@db.Date` column: midnight UTC of the date. */
export function dbDate(key: DateKey): Date {
  return new Date(`${key}T00:00:00Z`);
}

/** UTC instant of the local wall-clock `time` ("HH:MM" or "HH:MM:SS") on `key` in `tz`. */
export function zonedInstant(key: DateKey, time: string, tz: string): Date {
  const [y, m, d] = key.split("-").map(Number) as [number, number, number];
  const [hh, mm, ss = 0] = time.split(":").map(Number) as [number, number, number?];
  return new Date(new TZDate(y, m - 1, d, hh, mm, ss, 0, tz).getTime());
}

/**
 * The next scheduled run strictly after `after`: the first local date (from the local date of
 * `after`, up to 14 days on) whose weekday is in `days`, at `time` in `tz`. Null when `days` is empty.
 */
export function nextScheduledRun(input: { time: string; timezone: string; days: readonly string[]; after: Date }): Date | null {
  if (input.days.length === 0) return null;
  const start = localDateKey(input.after, input.timezone);
  for (let i = 0; i <= 14; i++) {
    const key = addDays(start, i);
    if (!input.days.includes(weekdayOf(key))) continue;
    const at = zonedInstant(key, input.time, input.timezone);
    if (at.getTime() > input.after.getTime()) return at;
  }
  return null;
}
