/**
 * Calendar helpers for the seed: local dates as "YYYY-MM-DD" keys, weekday names ("Mon".."Sun")
 * and the UTC instant of a local wall-clock time in an IANA timezone (DST rules of lib/domain/schedule.ts).
 */
import { WEEKDAYS } from "@/lib/domain/constants";
import { instantAtLocal, localDateOf } from "@/lib/domain/schedule";

/** A local calendar date, "YYYY-MM-DD". */
export type DateKey = string;

export type Weekday = (typeof WEEKDAYS)[number];

const MS_PER_DAY = 86_400_000;

/** The local date of `instant` in timezone `tz` (lib/domain/schedule.ts `localDateOf`). */
export function localDateKey(instant: Date, tz: string): DateKey {
  return localDateOf(instant, tz);
}

/** `key` shifted by `days` calendar days (negative goes back). */
export function addDays(key: DateKey, days: number): DateKey {
  return new Date(Date.parse(`${key}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Weekday name of a local date. */
export function weekdayOf(key: DateKey): Weekday {
  return WEEKDAYS[new Date(`${key}T00:00:00Z`).getUTCDay()] as Weekday;
}

/** The value Prisma expects for a `@db.Date` column: midnight UTC of the date. */
export function dbDate(key: DateKey): Date {
  return new Date(`${key}T00:00:00Z`);
}

/**
 * UTC instant of the local wall-clock `time` ("HH:MM:SS") on `key` in `tz`, with the DST rules of
 * lib/domain/schedule.ts `instantAtLocal` (gap: the transition instant; overlap: the earlier one).
 */
export function zonedInstant(key: DateKey, time: string, tz: string): Date {
  return instantAtLocal(key, time, tz);
}
