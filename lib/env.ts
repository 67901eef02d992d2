/**
 * Validated environment (parsed once with zod). Every variable is documented in `.env.example`.
 * `DATABASE_URL` is read lazily by lib/db.ts because `npm start` sets it after it has started the
 * embedded PostgreSQL.
 */
import { z } from "zod";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z.string().url().optional(),
  /** Secret for next-auth JWTs and cursor signatures; generated under .data/ when unset. */
  AUTH_SECRET: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Public base URL of the service (links in e-mails, Slack app manifest); default http://localhost:$PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /** Slack (issue 9): bot token xoxb-..., signing secret of the app, optional app-level token for Socket Mode. */
  SLACK_BOT_TOKEN: z.string().min(1).optional(),
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_APP_TOKEN: z.string().min(1).optional(),
  /** Base URL of the Slack Web API (tests point it at a local fake); default https://slack.com/api/. */
  SLACK_API_URL: z.string().url().optional(),
  /** Name or chat id of the team the Slack workspace serves; default: the first team. */
  SLACK_TEAM: z.string().min(1).optional(),
  /** E-mail: smtp://user:pass@host:587 (smtps:// for implicit TLS) and the From address. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default("Check-in <checkin@localhost>"),
  /** Allow webhook URLs that resolve to private, loopback or link-local addresses (tests, on-prem receivers). */
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** Webhook retry delays in seconds, comma-separated (default 5,300,1800,7200,18000,36000). */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^\d+(,\d+)*$/)
    .optional(),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Returns the parsed environment; throws a readable error listing invalid variables. */
export function getEnv(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  cached = parsed.data;
  return cached;
}
