/**
 * Start-up validation of the configuration (issue 44): a zod schema over the environment variables
 * of `.env.example`, giving one line per problem that names the variable and the fix. Pure (takes
 * the variables as a record): lib/env.ts `validateEnvironment()` passes `process.env`.
 */
import { z } from "zod";

type Env = Record<string, string | undefined>;

const FLAG = /^(true|1|on|yes|false|0|off|no)$/i;

/** An optional variable: empty counts as unset. */
const opt = (schema: z.ZodType<unknown>) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

const url = (protocols: string[], example: string) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `is not a ${protocols.map((p) => `${p}//`).join(" or ")} URL; set it like ${example}` },
  );

const int = (min: number, max = Number.MAX_SAFE_INTEGER, example = String(min)) =>
  z.string().refine((v) => /^\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max, {
    message: `must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : " up"}, e.g. ${example}`,
  });

const flag = z.string().refine((v) => FLAG.test(v.trim()), { message: "must be true or false (also 1/0, on/off, yes/no)" });

const pg = url(["postgres:", "postgresql:"], "postgresql://user:password@host:5432/checkin");
const web = url(["http:", "https:"], "https://checkin.example.com");

const schema = z.object({
  PORT: opt(int(1, 65535, "3000")),
  DATABASE_URL: opt(pg),
  DIRECT_DATABASE_URL: opt(pg),
  DATABASE_POOL_SIZE: opt(int(1, 10_000, "10")),
  DATABASE_PREPARED_STATEMENTS: opt(flag),
  DATABASE_PIPELINE: opt(flag),
  PUBLIC_URL: opt(web),
  NEXTAUTH_URL: opt(web),
  SMTP_URL: opt(url(["smtp:", "smtps:"], "smtp://user:password@mail.example.com:587")),
  LLM_BASE_URL: opt(url(["http:", "https:"], "http://127.0.0.1:11434/v1")),
  LLM_TIMEOUT_MS: opt(int(100, 600_000, "30000")),
  SLACK_API_URL: opt(web),
  AUTH_SECRET: opt(z.string().min(16, { message: "is shorter than 16 characters; generate one with: openssl rand -base64 32" })),
  METRICS_TOKEN: opt(z.string().min(16, { message: "is shorter than 16 characters; generate one with: openssl rand -hex 24" })),
  API_BODY_LIMIT_BYTES: opt(int(1024, Number.MAX_SAFE_INTEGER, "1048576")),
  RATE_LIMIT_API_PER_MINUTE: opt(int(0, Number.MAX_SAFE_INTEGER, "600")),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: opt(int(0, Number.MAX_SAFE_INTEGER, "300")),
  SIGN_IN_MAX_FAILURES: opt(int(0, Number.MAX_SAFE_INTEGER, "10")),
  SIGN_IN_FAILURE_WINDOW_MINUTES: opt(int(1, Number.MAX_SAFE_INTEGER, "15")),
  LINK_REQUESTS_PER_HOUR: opt(int(0, Number.MAX_SAFE_INTEGER, "5")),
  API_KEY_CACHE_TTL_MS: opt(int(0, Number.MAX_SAFE_INTEGER, "5000")),
  HTTP_HEADERS_TIMEOUT_MS: opt(int(1, Number.MAX_SAFE_INTEGER, "10000")),
  HTTP_REQUEST_TIMEOUT_MS: opt(int(1, Number.MAX_SAFE_INTEGER, "30000")),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: opt(int(1, Number.MAX_SAFE_INTEGER, "5000")),
  CHECKIN_BACKUP_KEEP: opt(int(1, 10_000, "7")),
  TRUST_PROXY: opt(flag),
  CHECKIN_DEMO: opt(flag),
  WEBHOOKS_ALLOW_PRIVATE: opt(flag),
  LOG_LEVEL: opt(
    z.string().regex(/^(trace|debug|info|warn|error|fatal|silent)$/i, {
      message: "must be one of trace, debug, info, warn, error, fatal, silent, e.g. info",
    }),
  ),
  LOG_FORMAT: opt(z.string().regex(/^(json|pretty)$/i, { message: "must be json or pretty, e.g. json" })),
  WEBHOOK_RETRY_DELAYS: opt(z.string().regex(/^\d+(,\d+)*$/, { message: "must be comma-separated whole seconds, e.g. 5,300,1800" })),
});

/** Variables that only work together: [set one, ..., message when another is missing]. */
const PAIRS: Array<[string, string]> = [
  ["GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET"],
  ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
  ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"],
  ["LLM_BASE_URL", "LLM_MODEL"],
];

/**
 * The problems of `env`, one line each: `NAME <what is wrong>; <the fix>`. Empty when the
 * configuration is usable. Values are never echoed (they may be secrets).
 */
export function environmentProblems(env: Env): string[] {
  const problems: string[] = [];
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${String(issue.path[0])} ${issue.message}`);
  }
  const set = (name: string) => (env[name]?.trim() ?? "") !== "";
  for (const [a, b] of PAIRS) {
    if (set(a) !== set(b)) {
      const [given, missing] = set(a) ? [a, b] : [b, a];
      problems.push(`${given} is set but ${missing} is not; set both or neither`);
    }
  }
  if (set("OIDC_ISSUER") !== (set("OIDC_CLIENT_ID") && set("OIDC_CLIENT_SECRET"))) {
    problems.push("OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET work together; set all three or none");
  }
  if (set("DIRECT_DATABASE_URL") && !set("DATABASE_URL")) {
    problems.push("DIRECT_DATABASE_URL is set without DATABASE_URL; set DATABASE_URL too, or unset it for the embedded database");
  }
  if (set("DATABASE_URL") && set("CHECKIN_BACKUP_DIR")) {
    problems.push(
      "CHECKIN_BACKUP_DIR is set with DATABASE_URL, but only the embedded database is backed up; unset it and back up that server with its own tooling",
    );
  }
  if ((set("SLACK_SIGNING_SECRET") || set("SLACK_APP_TOKEN")) && !set("SLACK_BOT_TOKEN")) {
    problems.push("SLACK_SIGNING_SECRET / SLACK_APP_TOKEN are set without SLACK_BOT_TOKEN; set the bot token (xoxb-...) too");
  }
  if (set("AUTH_SECRET") && set("NEXTAUTH_SECRET") && env.AUTH_SECRET !== env.NEXTAUTH_SECRET) {
    problems.push("AUTH_SECRET and NEXTAUTH_SECRET differ; set only AUTH_SECRET");
  }
  return problems;
}
