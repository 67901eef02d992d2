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
  /** `false` (or `npm start -- --no-demo`): an empty database is not seeded; the first visit shows /setup. */
  CHECKIN_DEMO: z.enum(["true", "false", "1", "0"]).default("true"),
  /** smtp(s)://user:pass@host:port for invitation and password-reset e-mails; unset: links are shown once to copy. */
  SMTP_URL: z.string().url().optional(),
  /** Sender of those e-mails. */
  MAIL_FROM: z.string().min(3).default("Team Check-in <checkin@localhost>"),
  /** Public origin used in e-mailed links when no request is at hand (commands, jobs), e.g. https://checkin.example.com. */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * Comma-separated e-mail domains whose OAuth/OIDC sign-ins create a member on first sign-in:
   * `example.com` (the oldest team) or `example.com=2` (team id 2).
   */
  AUTH_ALLOWED_DOMAINS: z.string().default(""),
  /** Slack bot token (xoxb-...): connects the workspace (delivery and the people/channel sync). */
  SLACK_BOT_TOKEN: z.string().min(1).optional(),
  /** Slack Web API base URL (default Slack's own; tests point it at a local fake). */
  SLACK_API_URL: z.string().url().optional(),
  /** The team the workspace serves: a team name or chat id (default: the oldest team). */
  SLACK_TEAM: z.string().min(1).optional(),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Drops the cached parse (tests that change process.env call this). */
export function resetEnvCache(): void {
  cached = undefined;
}

/** Returns the parsed environment; throws a readable error listing invalid variables. */
export function getEnv(): Env {
  if (cached) return cached;
  // An empty variable (`SMTP_URL=` in a .env file) means unset.
  const present = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  cached = parsed.data;
  return cached;
}
