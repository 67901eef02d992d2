/**
 * Constants shared by the domain, the API schemas and the dashboard, defined once.
 */

/** Largest value of a numeric id column (PostgreSQL `integer`); larger numbers name no row. */
export const MAX_DB_ID = 2_147_483_647;

/** Most questions a standup may have (spec §4.3, dashboard form). */
export const MAX_QUESTIONS = 30;

/** Longest standup / poll name, in characters (longer names are cut or rejected). */
export const MAX_NAME_LENGTH = 200;

/** Three-letter weekday names indexed like `Date.getUTCDay()` (Sunday first). */
export const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/** The same names in calendar order, Monday first (how forms and the API list them). */
export const DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

/**
 * Bounds of a standup's asking settings (lib/domain/standup-config.ts `parseAskingSettings`, the
 * standup form): reminders 0..5, minutes before a reminder 1..1440, response window 1..10080
 * minutes (a week), late answers 0..30 days, wait after the scheduled time 0..1440 minutes.
 */
export const ASKING_LIMITS = {
  maxReminders: 5,
  maxReminderAfterMinutes: 1440,
  maxResponseWindowMinutes: 10_080,
  maxLateAnswerDays: 30,
  maxWaitTime: 1440,
} as const;

/** Monday to Friday: the default schedule of a new standup. */
export const WORK_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri"] as const;

/** Length bounds of a password a person chooses (characters): checked by `checkNewPassword`, mirrored by the forms. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;
