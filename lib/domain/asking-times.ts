/**
 * When an occurrence's members are asked and how long they may answer (issue 10 "Asking"), and a
 * checkin's next run (`nextOccurrenceStart`; `refreshNextRunAt` stores it in `next_run_at`). Pure
 * functions over the schedule maths of lib/domain/schedule.ts (offsets from `@date-fns/tz`), except
 * `refreshNextRunAt`, which reads and writes the checkin row in the caller's transaction. (It lives
 * here, not in schedule.ts, because it needs the asking schedule and schedule.ts is below this file.)
 *
 * Definitions (all instants UTC `Date`s, dates "YYYY-MM-DD", `time` "HH:MM:SS"):
 * - Automatic asking happens only when `waitTime` is a number (spec §2.2/§2.8: null = only when
 *   started). A member is asked `waitTime` minutes after the scheduled time: the service has no
 *   presence signal, so the member is taken to be "logged in" at the scheduled time.
 * - Not personalised: every member's slot is `time` in the standup's `timezone` on the local date D.
 * - Personalised: member m's slot on date D is `time` on D in m's own timezone (an invalid or empty
 *   member timezone falls back to the standup's). All members' runs of the same calendar date D
 *   form ONE occurrence dated D; D's weekday must be in `days`. The occurrence opens at the earliest
 *   slot of D among the members' timezones (that instant is `next_run_at`); each member is asked at
 *   their own slot. A date whose earliest slot has already passed when the schedule is (re)computed
 *   is skipped as a whole (a standup created at 12:00 UTC first runs on the next scheduled date).
 * - Response window: `responseWindowMinutes` after each member's asking time when set; otherwise
 *   until that member's next slot or 24 h, whichever is first. The occurrence closes when the last
 *   member's window ends (`closesAt`).
 */
import { db as defaultDb, type Tx } from "@/lib/db";
import { WEEKDAYS } from "@/lib/domain/constants";
import { instantAtLocal, isValidTimezone, localDateOf, nextRunAt } from "@/lib/domain/schedule";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The schedule fields of a checkin that decide asking times. */
export type AskingSchedule = {
  time: string;
  timezone: string;
  days: readonly string[];
  personalised: boolean;
  /** Minutes after the slot; null = no automatic asking. */
  waitTime: number | null;
  /** Minutes a member may answer after being asked; null = until the next slot or 24 h. */
  responseWindowMinutes: number | null;
};

/** True when the weekday of local date `date` ("YYYY-MM-DD") is one of `days` ("Mon".."Sun"). */
export function runsOn(date: string, days: readonly string[]): boolean {
  const weekday = WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];
  return days.some((d) => typeof d === "string" && d.trim().slice(0, 3).toLowerCase() === weekday.toLowerCase());
}

/** The timezone a member's slot is computed in: their own for personalised standups (when valid). */
export function slotTimezone(schedule: Pick<AskingSchedule, "personalised" | "timezone">, memberTimezone: string | null): string {
  if (schedule.personalised && memberTimezone && isValidTimezone(memberTimezone)) return memberTimezone;
  return isValidTimezone(schedule.timezone) ? schedule.timezone : "UTC";
}

/** The member's slot (scheduled time, before `waitTime`) on local date `date`. */
export function slotOn(schedule: AskingSchedule, date: string, memberTimezone: string | null): Date {
  return instantAtLocal(date, schedule.time, slotTimezone(schedule, memberTimezone));
}

/** When the member is asked on `date`: the slot plus `waitTime` minutes (0 when null: manual start). */
export function dueOn(schedule: AskingSchedule, date: string, memberTimezone: string | null): Date {
  return new Date(slotOn(schedule, date, memberTimezone).getTime() + Math.max(0, schedule.waitTime ?? 0) * MINUTE_MS);
}

/** Distinct timezones the slots of these members fall in (the standup's alone unless personalised). */
export function slotTimezones(schedule: AskingSchedule, memberTimezones: readonly (string | null)[]): string[] {
  if (!schedule.personalised || memberTimezones.length === 0) return [slotTimezone({ ...schedule, personalised: false }, null)];
  return [...new Set(memberTimezones.map((tz) => slotTimezone(schedule, tz)))].sort();
}

/**
 * The next occurrence to open strictly after `after`: its date D and the earliest slot of D among
 * `memberTimezones` (see the module comment). Null when `waitTime` is null (no automatic asking)
 * or `days` names no weekday.
 */
export function nextOccurrenceStart(
  schedule: AskingSchedule,
  memberTimezones: readonly (string | null)[],
  after: Date,
): { date: string; at: Date } | null {
  if (schedule.waitTime === null) return null;
  const zones = slotTimezones(schedule, memberTimezones);
  const first = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  // Local dates lie within a day of the UTC date; 10 days always reach every weekday once more.
  for (let k = -1; k <= 9; k++) {
    const date = new Date(first + k * DAY_MS).toISOString().slice(0, 10);
    if (!runsOn(date, schedule.days)) continue;
    const earliest = Math.min(...zones.map((tz) => instantAtLocal(date, schedule.time, tz).getTime()));
    if (earliest > after.getTime()) return { date, at: new Date(earliest) };
  }
  return null;
}

/** The local date of an occurrence that opens at `at` (non-personalised: in the standup's timezone). */
export function occurrenceDateAt(schedule: AskingSchedule, at: Date): string {
  return localDateOf(at, slotTimezone({ ...schedule, personalised: false }, null));
}

/**
 * End of one member's response window for an ask at `askedAt` (their slot on `date` plus wait, or
 * the moment of a manual start): `responseWindowMinutes` later when set, else the member's next
 * slot (plus wait) or 24 h, whichever is first.
 */
export function windowEnd(schedule: AskingSchedule, askedAt: Date, memberTimezone: string | null): Date {
  if (schedule.responseWindowMinutes !== null && schedule.responseWindowMinutes > 0) {
    return new Date(askedAt.getTime() + schedule.responseWindowMinutes * MINUTE_MS);
  }
  const dayLater = askedAt.getTime() + DAY_MS;
  let next: Date | null = null;
  try {
    next = nextRunAt({ time: schedule.time, timezone: slotTimezone(schedule, memberTimezone), days: schedule.days, after: askedAt });
  } catch {
    next = null;
  }
  const nextAsk = next ? next.getTime() + Math.max(0, schedule.waitTime ?? 0) * MINUTE_MS : Number.POSITIVE_INFINITY;
  return new Date(Math.min(dayLater, nextAsk > askedAt.getTime() ? nextAsk : dayLater));
}

/** When an occurrence closes: the latest window end among its members' asks (`askedAt` per member). */
export function closesAt(schedule: AskingSchedule, asks: ReadonlyArray<{ askedAt: Date; timezone: string | null }>): Date | null {
  if (asks.length === 0) return null;
  return new Date(Math.max(...asks.map((a) => windowEnd(schedule, a.askedAt, a.timezone).getTime())));
}

/** The schedule columns of a checkin row that decide asking times. */
export type ScheduleColumns = {
  kind: string;
  time: string;
  timezone: string;
  days: string[];
  personalised: boolean;
  wait_time: number | null;
  response_window_minutes: number | null;
};

/** The asking schedule of a checkin row (polls: asked at their time, never personalised). */
export function askingScheduleOf(checkin: ScheduleColumns): AskingSchedule {
  const isPoll = checkin.kind === "poll";
  return {
    time: checkin.time,
    timezone: checkin.timezone,
    days: checkin.days,
    personalised: !isPoll && checkin.personalised,
    waitTime: isPoll ? 0 : checkin.wait_time === null || checkin.wait_time < 0 ? null : checkin.wait_time,
    responseWindowMinutes: isPoll ? null : checkin.response_window_minutes,
  };
}

/** The Prisma select of the fields `askingScheduleOf` reads (plus id, team and duration). */
export const askingScheduleSelect = {
  id: true,
  team_id: true,
  kind: true,
  time: true,
  timezone: true,
  days: true,
  personalised: true,
  wait_time: true,
  response_window_minutes: true,
  duration: true,
} as const;

/** The Prisma select of a checkin's active members with their timezone (personalised asking). */
export const activeMembersSelect = {
  where: { user: { deactivated_at: null } },
  select: { user_id: true, user: { select: { timezone: true } } },
  orderBy: { user_id: "asc" },
} as const;

/** The Prisma select of what a checkin's runs are computed from: schedule, recurrence, next_run_at, active members. */
export const checkinScheduleSelect = {
  ...askingScheduleSelect,
  recurrence: true,
  next_run_at: true,
  members: activeMembersSelect,
} as const;

/**
 * Recomputes `next_run_at` of one checkin after its schedule, state, members or recurrence changed
 * (writers call this in the same transaction as their change when they pass their transaction
 * client). Active checkins with automatic asking get the next occurrence start after `now`
 * (`nextOccurrenceStart`); standups whose `wait_time` is null (asked
 * only when started), other states and a one-shot poll that already ran get null. Writers of a poll
 * that must broadcast immediately set `next_run_at = now` themselves instead.
 * @returns the new next_run_at (UTC) or null.
 * @throws Prisma's not-found error when the checkin does not exist.
 */
export async function refreshNextRunAt(checkinId: number, db: Tx = defaultDb, now: Date = new Date()): Promise<Date | null> {
  const checkin = await db.checkin.findUniqueOrThrow({
    where: { id: checkinId },
    select: { ...checkinScheduleSelect, state: true, _count: { select: { occurrences: true } } },
  });
  let next: Date | null = null;
  if (checkin.state === "active" && !(isOneShot(checkin.recurrence) && checkin._count.occurrences > 0)) {
    next =
      safeNextStart(
        askingScheduleOf(checkin),
        checkin.members.map((m) => m.user.timezone),
        now,
      )?.at ?? null;
  }
  await db.checkin.update({ where: { id: checkin.id }, data: { next_run_at: next } });
  return next;
}

/** True for a one-shot poll (`recurrence.type === "once"`): it runs once, then has no next run. */
export function isOneShot(recurrence: unknown): boolean {
  return typeof recurrence === "object" && recurrence !== null && (recurrence as { type?: unknown }).type === "once";
}

/** nextOccurrenceStart that answers null (never runs) for a stored schedule that is invalid, instead of throwing. */
export function safeNextStart(schedule: AskingSchedule, zones: readonly string[], after: Date): { date: string; at: Date } | null {
  try {
    return nextOccurrenceStart(schedule, zones, after);
  } catch {
    return null;
  }
}
