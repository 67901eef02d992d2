/**
 * Schedule maths for standups and polls: "at HH:MM:SS local time in an IANA timezone on these
 * weekdays". Timezone offsets come from `@date-fns/tz` (which reads the platform's IANA database
 * through Intl); no DST rule is written here. Only calendar arithmetic on wall-clock dates (which
 * has no DST) is done by hand, in UTC.
 *
 * Conventions (spec §2.1 `time`, `timezone`, `days`):
 * - `time` is "HH:MM:SS" (24 h) local wall-clock time in `timezone`.
 * - `days` are three-letter English weekday names ("Mon".."Sun"), case-insensitive.
 * - Instants are JavaScript `Date`s (UTC internally).
 * - DST gap (the local time does not exist that day, e.g. 02:30 on a spring-forward day): the run
 *   happens at the first valid instant after it, i.e. the transition instant (03:00 local in
 *   America/New_York).
 * - DST overlap (the local time exists twice, e.g. 01:30 on a fall-back day): the run happens at
 *   the earlier of the two instants, once.
 */
import { TZDate, tzOffset } from "@date-fns/tz";
import { WEEKDAYS } from "@/lib/domain/constants";
import { InvalidParameterError } from "@/lib/domain/errors";

/** Three-letter weekday names in JavaScript `getDay()` order (0 = Sunday). */
export type Weekday = (typeof WEEKDAYS)[number];

const DAY_MS = 86_400_000;

/**
 * Names `isValidTimezone` has accepted. Building an `Intl.DateTimeFormat` to ask costs tens of
 * µs, and every report submission asks several times (issue 14: ~3% of a POST /v2/reports). At most
 * `MAX_KNOWN_ZONES` (IANA has ~600 names; case variants ICU also accepts can add some).
 */
const knownZones = new Set<string>();
const MAX_KNOWN_ZONES = 2_000;

/**
 * True when `tz` is an IANA timezone name this runtime knows (e.g. "Europe/Berlin", "UTC").
 * Never throws.
 */
export function isValidTimezone(tz: unknown): tz is string {
  if (typeof tz !== "string") return false;
  if (knownZones.has(tz)) return true;
  if (tz.trim() === "" || tz !== tz.trim()) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
  } catch {
    return false;
  }
  if (knownZones.size < MAX_KNOWN_ZONES) knownZones.add(tz);
  return true;
}

/**
 * Normalises a time of day to "HH:MM:SS".
 * Accepts "HH:MM", "HH:MM:SS" (spec §4.5 create) and "HHMM" (v1 PATCH/PUT, spec §4 legacy table).
 * A one-digit hour ("9:30") is accepted too.
 * @throws InvalidParameterError when the format or a component is out of range.
 */
export function parseTimeOfDay(input: string): string {
  const value = typeof input === "string" ? input.trim() : "";
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value) ?? /^(\d{2})(\d{2})()$/.exec(value);
  if (!m) throw new InvalidParameterError(`Invalid time "${String(input)}": expected HH:MM, HH:MM:SS or HHMM`);
  const h = Number(m[1]);
  const min = Number(m[2]);
  const s = m[3] ? Number(m[3]) : 0;
  if (h > 23 || min > 59 || s > 59) throw new InvalidParameterError(`Invalid time "${String(input)}": out of range`);
  return [h, min, s].map((n) => String(n).padStart(2, "0")).join(":");
}

/**
 * Local calendar date of an instant in a timezone, as "YYYY-MM-DD".
 * @throws RangeError for an unknown timezone.
 */
export function localDateOf(instant: Date, timezone: string): string {
  assertTimezone(timezone);
  const local = new TZDate(instant.getTime(), timezone);
  return `${String(local.getFullYear()).padStart(4, "0")}-${pad2(local.getMonth() + 1)}-${pad2(local.getDate())}`;
}

/**
 * The UTC instant at which local wall-clock time `time` occurs on local date `date` in `timezone`.
 * Gap: the transition instant (first valid instant after the missing time). Overlap: the earlier instant.
 * @param date "YYYY-MM-DD"; @param time "HH:MM:SS".
 * @throws RangeError for an unknown timezone or malformed date.
 */
export function instantAtLocal(date: string, time: string, timezone: string): Date {
  assertTimezone(timezone);
  const dm = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!dm) throw new RangeError(`Invalid date "${date}"`);
  const [h, min, s] = parseTimeOfDay(time).split(":").map(Number);
  const wallMs = Date.UTC(Number(dm[1]), Number(dm[2]) - 1, Number(dm[3]), h, min, s);
  return new Date(resolveWallTime(wallMs, timezone));
}

/**
 * Next scheduled run strictly after `after`: the UTC instant of local `time` in `timezone` on the
 * first local date (starting with the local date of `after`) whose weekday is in `days`.
 * @returns the instant, or null when `days` names no valid weekday.
 * @throws InvalidParameterError for a malformed time; RangeError for an unknown timezone.
 */
export function nextRunAt(opts: { time: string; timezone: string; days: readonly string[]; after: Date }): Date | null {
  const { timezone, after } = opts;
  assertTimezone(timezone);
  const wanted = new Set(opts.days.map(normaliseDay).filter((d): d is number => d !== null));
  if (wanted.size === 0) return null;
  const [h, min, s] = parseTimeOfDay(opts.time).split(":").map(Number);
  const startLocal = new TZDate(after.getTime(), timezone);
  // Wall-clock midnight of the local date of `after`, expressed as if it were UTC (no DST in UTC).
  const startDay = Date.UTC(startLocal.getFullYear(), startLocal.getMonth(), startLocal.getDate());
  // Yesterday is included because an overlap/gap can never move a run across more than a few hours,
  // but checking one extra day costs nothing; 8 days ahead always reaches the same weekday next week.
  for (let i = -1; i <= 8; i++) {
    const day = startDay + i * DAY_MS;
    if (!wanted.has(new Date(day).getUTCDay())) continue;
    const instant = resolveWallTime(day + ((h * 60 + min) * 60 + s) * 1000, timezone);
    if (instant > after.getTime()) return new Date(instant);
  }
  return null;
}

/** Weekday index (0 = Sunday) of a "Mon"/"monday"/"MON" name, or null. */
function normaliseDay(day: string): number | null {
  if (typeof day !== "string") return null;
  const idx = WEEKDAYS.findIndex((d) => d.toLowerCase() === day.trim().slice(0, 3).toLowerCase());
  return idx === -1 ? null : idx;
}

/**
 * Resolves a wall-clock time (given as epoch ms of the same wall time in UTC) to a real instant in
 * `timezone`, using the library's offsets only. Earlier instant on overlap, transition on gap.
 */
function resolveWallTime(wallMs: number, timezone: string): number {
  const offsetAt = (ms: number) => tzOffset(timezone, new Date(ms)); // minutes east of UTC
  const before = offsetAt(wallMs - DAY_MS);
  const afterOff = offsetAt(wallMs + DAY_MS);
  const candidates = [...new Set([before, afterOff, offsetAt(wallMs)])]
    .map((off) => wallMs - off * 60_000)
    .filter((instant) => offsetAt(instant) * 60_000 === wallMs - instant)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0];
  // Gap: the wall time is skipped. Find the transition instant between the two interpretations.
  let lo = Math.min(wallMs - before * 60_000, wallMs - afterOff * 60_000); // still the old offset
  let hi = Math.max(wallMs - before * 60_000, wallMs - afterOff * 60_000); // already the new offset
  const oldOffset = offsetAt(lo);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid) === oldOffset) lo = mid;
    else hi = mid;
  }
  return hi;
}

function assertTimezone(tz: string): void {
  if (!isValidTimezone(tz)) throw new RangeError(`Unknown timezone "${tz}"`);
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}
