/**
 * The "check-ins as code" document (issue 43): one team's standups, polls, holidays and webhooks as
 * YAML or JSON, validated by `teamConfigSchema` (zod) and published as JSON Schema at
 * GET /v2/config.schema.json (`teamConfigJsonSchema`). People are named by e-mail and channels by
 * name, so a document exported from one team applies to another. Standups and polls are identified
 * by `name`, questions by `key` (a reworded question with the same key keeps its id and answers),
 * holidays by `date`, webhooks by `url`. Webhook secrets are never part of the document.
 *
 * `answer_type` is passed through as a string (the service's question types decide what is valid
 * when the document is applied); `choices` are kept as given.
 */
import { z } from "zod";

/** Version of the document format (`version: 1`). */
export const CONFIG_VERSION = 1;

const zMinutes = (description: string) => z.number().int("must be a whole number of minutes").min(0).meta({ description });
const zChannelName = z.string().trim().min(1, "must not be empty").meta({ description: "Channel name (with or without the leading #)." });

const questionSchema = z
  .strictObject({
    key: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100)
      .regex(/^[A-Za-z0-9_.-]+$/, "use letters, digits, '_', '.' or '-'")
      .optional()
      .meta({ description: "Stable key of the question; default q<n> (its 1-based position). Keep it when rewording." }),
    text: z.string().trim().min(1, "must not be empty"),
    answer_type: z
      .string()
      .trim()
      .min(1)
      .optional()
      .meta({ description: "e.g. text, multiple_choice (standups); multiple_choice, open_ended (polls). Default from `choices`." }),
    choices: z.array(z.string().trim().min(1, "must not be empty")).optional().meta({ description: "Choices of a choice question." }),
    is_blocker: z.boolean().optional().meta({ description: "Standups: answers are listed as blockers (default: guessed from the text)." }),
    optional: z.boolean().optional().meta({ description: 'Standups: a report may leave it out ("nothing to report"); default false.' }),
    scale: z
      .strictObject({
        min: z.number().int().optional().meta({ description: "Lowest point (0..10), default 1." }),
        max: z.number().int().optional().meta({ description: "Highest point, default 5 (2 to 11 points)." }),
        labels: z.array(z.string().trim().min(1, "must not be empty")).optional().meta({ description: "One label per point, or none." }),
      })
      .optional()
      .meta({ description: "Rating questions (answer_type rating): the scale." }),
  })
  .meta({ id: "ConfigQuestion" });

/** A case-insensitive pattern without the `i` flag (JSON Schema patterns have no flags): "mon" → "[Mm][Oo][Nn]". */
const anyCase = (word: string) => [...word].map((c) => `[${c.toUpperCase()}${c}]`).join("");
const weekday = z
  .string()
  .regex(
    new RegExp(`^(${["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map(anyCase).join("|")})$`),
    "must be a three-letter day name (Mon..Sun)",
  );
const zTime = z.string().regex(/^\d{1,2}:\d{2}(:\d{2})?$/, "must be HH:MM or HH:MM:SS");

const standupSchema = z
  .strictObject({
    name: z.string().trim().min(1, "must not be empty").meta({ description: "Identifies the standup in the team." }),
    state: z.enum(["active", "paused"]).default("active"),
    time: zTime,
    timezone: z.string().min(1).meta({ description: "IANA timezone, e.g. Europe/Berlin." }),
    days: z.array(weekday).min(1, "at least one day"),
    wait_time: zMinutes("Minutes after login before asking; null: only when started.").nullable().default(0),
    personalised: z.boolean().default(false),
    reminders: z
      .strictObject({
        count: z.number().int().min(0).default(1).meta({ description: "Reminders to members who have not answered (0: none)." }),
        after_minutes: z.number().int().min(1).default(60).meta({ description: "Minutes after asking before a reminder." }),
      })
      .default({ count: 1, after_minutes: 60 }),
    response_window_minutes: z.number().int().min(1).nullable().default(null),
    late_answer_days: z.number().int().min(0).default(7),
    broadcast_channel: zChannelName.nullable().default(null),
    sync_channel: zChannelName.nullable().default(null).meta({ description: "Members follow this channel; `members` is then ignored." }),
    members: z.array(z.email("must be an e-mail address")).default([]).meta({ description: "Members by e-mail." }),
    is_anonymous: z.boolean().default(false),
    allow_anonymous_reports: z.boolean().default(false).meta({ description: "Members may post a report anonymously." }),
    is_confidential: z.boolean().default(false),
    questions: z.array(questionSchema).min(1, "at least one question"),
  })
  .meta({ id: "ConfigStandup" });

const pollSchema = z
  .strictObject({
    name: z.string().trim().min(1, "must not be empty").meta({ description: "Identifies the poll in the team." }),
    state: z.enum(["active", "paused"]).default("active"),
    broadcast_channel: zChannelName,
    schedule: z
      .strictObject({ days: z.array(weekday).min(1, "at least one day"), time: zTime, timezone: z.string().min(1) })
      .nullable()
      .default(null)
      .meta({ description: "Recurring poll; null: a one-shot poll (broadcast when created)." }),
    duration: z.number().int().min(1).nullable().default(null).meta({ description: "Minutes a broadcast stays open; null: until closed." }),
    is_anonymous: z.boolean().default(false),
    share_results: z.boolean().default(false),
    intro: z.string().nullable().default(null),
    questions: z.array(questionSchema).min(1, "at least one question"),
  })
  .meta({ id: "ConfigPoll" });

const holidaySchema = z
  .strictObject({
    date: z.iso.date("must be a date YYYY-MM-DD"),
    name: z.string().trim().min(1, "must not be empty").max(100),
  })
  .meta({ id: "ConfigHoliday" });

const webhookSchema = z
  .strictObject({
    url: z.url("must be an http(s) URL"),
    events: z.array(z.string().min(1)).min(1, "at least one event"),
    description: z.string().default(""),
    enabled: z.boolean().default(true),
  })
  .meta({ id: "ConfigWebhook" });

/** Issues for values that must be unique in a list (names, keys, dates, urls). */
function uniqueBy<T>(items: readonly T[], key: (item: T) => string, field: string, ctx: z.RefinementCtx, base: (string | number)[]): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item).toLowerCase();
    if (seen.has(k)) ctx.addIssue({ code: "custom", path: [...base, i, field], message: `duplicate ${field} "${key(item)}"` });
    seen.add(k);
  });
}

/** The whole document. Defaults fill what a short document leaves out. */
export const teamConfigSchema = z
  .strictObject({
    version: z.literal(CONFIG_VERSION).default(CONFIG_VERSION),
    team: z.string().optional().meta({ description: "The team's name (informational)." }),
    standups: z.array(standupSchema).default([]),
    polls: z.array(pollSchema).default([]),
    holidays: z.array(holidaySchema).default([]),
    webhooks: z.array(webhookSchema).default([]),
  })
  .superRefine((doc, ctx) => {
    uniqueBy(doc.standups, (s) => s.name, "name", ctx, ["standups"]);
    uniqueBy(doc.polls, (p) => p.name, "name", ctx, ["polls"]);
    uniqueBy(doc.holidays, (h) => h.date, "date", ctx, ["holidays"]);
    uniqueBy(doc.webhooks, (w) => w.url, "url", ctx, ["webhooks"]);
    for (const kind of ["standups", "polls"] as const) {
      doc[kind].forEach((c, i) => {
        const keys = c.questions.map((q, j) => q.key ?? `q${j + 1}`);
        uniqueBy(keys, (k) => k, "key", ctx, [kind, i, "questions"]);
      });
    }
  })
  .meta({ id: "TeamConfig", title: "Team check-in configuration", description: "Check-ins as code (issue 43)." });

/** The document as written (defaults not applied). */
export type TeamConfigInput = z.input<typeof teamConfigSchema>;
/** The document with defaults applied. */
export type TeamConfig = z.output<typeof teamConfigSchema>;
export type StandupDoc = TeamConfig["standups"][number];
export type PollDoc = TeamConfig["polls"][number];
export type QuestionDoc = StandupDoc["questions"][number];

/** A path inside the document as editors show it: `standups[2].questions[0].choices`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out ? "." : ""}${String(p)}`;
  return out || "(document)";
}

/** One problem of a document: where and what. */
export type ConfigProblem = { path: string; message: string };

/**
 * Validates a parsed document.
 * @returns the document with defaults applied and question keys filled (`q<n>` when absent), or
 *   the problems found (each with its path).
 */
export function validateTeamConfig(input: unknown): { ok: true; config: TeamConfig } | { ok: false; problems: ConfigProblem[] } {
  const r = teamConfigSchema.safeParse(input);
  if (!r.success) return { ok: false, problems: r.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })) };
  const config = r.data;
  for (const c of [...config.standups, ...config.polls]) {
    c.questions = c.questions.map((q, i) => ({ ...q, key: q.key ?? `q${i + 1}` }));
  }
  return { ok: true, config };
}

let jsonSchema: Record<string, unknown> | undefined;

/** The JSON Schema (draft 2020-12) of the document as an editor validates it (input form: defaults optional). */
export function teamConfigJsonSchema(): Record<string, unknown> {
  jsonSchema ??= {
    ...z.toJSONSchema(teamConfigSchema, { io: "input", unrepresentable: "any" }),
    $id: "/v2/config.schema.json",
  };
  return jsonSchema;
}
