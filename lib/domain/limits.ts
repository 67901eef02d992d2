/**
 * Size limits of user input (issue 13), shared by the API schemas (v1 and v2), the dashboard forms
 * and server actions, so a field is refused the same way everywhere (400 INVALID_PARAMETER naming
 * the field). Lengths are in characters (UTF-16 code units, as JavaScript counts them).
 */
export const LIMITS = {
  /** One answer of a report. */
  answerText: 20_000,
  /** Names of standups, polls, channels; user-visible labels. */
  name: 200,
  /** Text of one question. */
  questionText: 2_000,
  /** Questions per standup. */
  questions: 50,
  /** Choices per question or poll. */
  choices: 50,
  /** Text of one choice. */
  choiceText: 200,
  /** Members named in one standup or start request. */
  users: 1_000,
  /** A time zone name, a day name, a user reference. */
  shortText: 100,
} as const;
