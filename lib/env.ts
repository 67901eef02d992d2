/**
 * The environment, read in ONE place: this module is the only reader (and writer) of
 * `process.env` in the application (Biome's `noProcessEnv` enforces it; tests, e2e specs and
 * tool configs are exempt). Values are read at call time, so `npm start` can set `DATABASE_URL`
 * after it has started the embedded PostgreSQL. Every variable is documented in `.env.example`.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { environmentProblems } from "@/lib/env-check";

/** `DATABASE_URL`, or undefined when unset (then `npm start` starts the embedded PostgreSQL). */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/** Sets `DATABASE_URL` for this process and the processes it starts (after starting the embedded database). */
export function setDatabaseUrl(url: string): void {
  process.env.DATABASE_URL = url;
}

/** Connections in the Prisma pool: `DATABASE_POOL_SIZE`, default 10. */
export function databasePoolSize(): number {
  const n = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

/**
 * A yes/no variable: true for `true`/`1`/`on`/`yes`, false for `false`/`0`/`off`/`no` (any case,
 * surrounding spaces ignored), undefined when unset, empty or anything else (the caller's default).
 */
function flag(name: string): boolean | undefined {
  const value = process.env[name]?.trim().toLowerCase();
  if (value === "true" || value === "1" || value === "on" || value === "yes") return true;
  if (value === "false" || value === "0" || value === "off" || value === "no") return false;
  return undefined;
}

/**
 * Whether the Prisma pool names its SQL statements, so each connection prepares a statement once
 * and PostgreSQL can reuse its plan (`DATABASE_PREPARED_STATEMENTS`: "on" | "off"). Default: on,
 * unless `DIRECT_DATABASE_URL` is set to another address than `DATABASE_URL` — the sign that
 * `DATABASE_URL` goes through PgBouncer in transaction mode, which before 1.21 (and without
 * `max_prepared_statements`) cannot keep a statement prepared on one server connection.
 */
export function preparedStatements(): boolean {
  const set = flag("DATABASE_PREPARED_STATEMENTS");
  if (set !== undefined) return set;
  const direct = directDatabaseUrl();
  return !direct || direct === databaseUrl();
}

/**
 * Whether `queryRows` sends its reads outside transactions on pipelined connections
 * (lib/db-pipeline.ts; `DATABASE_PIPELINE`: "on" | "off", default on). Only with named statements
 * (`preparedStatements()`): `queryRows` tells a read from a write once per named statement shape,
 * so behind a transaction-mode PgBouncer without them the pipeline stays off.
 */
export function databasePipeline(): boolean {
  return preparedStatements() && (flag("DATABASE_PIPELINE") ?? true);
}

/** The data folder (embedded database, generated auth secret, demo credentials): `$CHECKIN_DATA_DIR` or `<cwd>/.data`, absolute. */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.CHECKIN_DATA_DIR ?? path.join(process.cwd(), ".data"));
}

/** The raw `PORT` value (validated by scripts/start.ts), or undefined. */
export function portSetting(): string | undefined {
  return process.env.PORT;
}

/** The HTTP port: `PORT`, default 3000. */
export function port(): number {
  return Number(process.env.PORT ?? 3000);
}

let generatedSecret: string | undefined;

/**
 * The one secret of the service (next-auth JWTs and cookies, v2 cursor signatures): `AUTH_SECRET`,
 * else `NEXTAUTH_SECRET`, else a random 32-byte secret generated once into
 * `<dataDir()>/auth-secret` (mode 0600), so sessions and cursors survive restarts and every
 * process sharing the data folder agrees.
 */
export function authSecret(): string {
  const fromEnv = process.env.AUTH_SECRET || process.env.NEXTAUTH_SECRET;
  if (fromEnv) return fromEnv;
  if (generatedSecret) return generatedSecret;
  const dir = dataDir();
  const file = path.join(dir, "auth-secret");
  try {
    generatedSecret = fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = randomBytes(32).toString("base64url");
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
      generatedSecret = secret;
    } catch {
      // another process created it first: use theirs
      generatedSecret = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : secret;
    }
  }
  return generatedSecret as string;
}

/** `NEXTAUTH_SECRET` when set explicitly (npm start passes it on unchanged). */
export function nextAuthSecretSetting(): string | undefined {
  return process.env.NEXTAUTH_SECRET || undefined;
}

/**
 * next-auth takes the origin from the request's Host header unless `NEXTAUTH_URL` is set: the
 * service is self-hosted behind a proxy you configure, so `AUTH_TRUST_HOST` defaults to true.
 */
export function defaultAuthTrustHost(): void {
  if (!process.env.NEXTAUTH_URL && process.env.AUTH_TRUST_HOST === undefined) process.env.AUTH_TRUST_HOST = "true";
}

/** OAuth client credentials of one provider. */
export type OAuthClient = { clientId: string; clientSecret: string };

/** `NEXTAUTH_URL` when set: next-auth's fixed origin (else taken from each request's Host). */
export function nextAuthUrlSetting(): string | undefined {
  return process.env.NEXTAUTH_URL || undefined;
}

/** Sign-in providers switched on by environment variables (each only when all its variables are set). */
export function oauthSettings(): {
  github: OAuthClient | null;
  google: OAuthClient | null;
  oidc: (OAuthClient & { issuer: string; name: string }) | null;
} {
  const e = process.env;
  const pair = (id: string | undefined, secret: string | undefined) => (id && secret ? { clientId: id, clientSecret: secret } : null);
  const oidcClient = pair(e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET);
  return {
    github: pair(e.GITHUB_CLIENT_ID, e.GITHUB_CLIENT_SECRET),
    google: pair(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET),
    oidc:
      e.OIDC_ISSUER && oidcClient
        ? { ...oidcClient, issuer: e.OIDC_ISSUER.replace(/\/$/, ""), name: e.OIDC_NAME || "Single sign-on" }
        : null,
  };
}

/** The environment for a child process: this process's variables plus `extra`. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

/** False when `CHECKIN_DEMO` is `false`/`0`/`off`/`no` (`npm start -- --no-demo`): an empty database is not seeded and shows /setup. */
export function demoEnabled(): boolean {
  return flag("CHECKIN_DEMO") !== false;
}

/** `npm start -- --no-demo`: sets `CHECKIN_DEMO=false` for this process and the service it starts. */
export function disableDemo(): void {
  process.env.CHECKIN_DEMO = "false";
}

/** SMTP for invitation and password-reset e-mails: `SMTP_URL` and `MAIL_FROM`; null when `SMTP_URL` is unset or empty. */
export function smtpSettings(): { url: string; from: string } | null {
  const d = deliverySettings();
  return d.smtpUrl ? { url: d.smtpUrl, from: d.mailFrom } : null;
}

/** Public origin of e-mailed and printed links (`PUBLIC_URL`, no trailing slash), or undefined. */
export function publicUrl(): string | undefined {
  return deliverySettings().publicUrl?.replace(/\/+$/, "");
}

/**
 * The origin every link the service sends or shows is built from (e-mails, chat messages, one-time
 * link dialogs; issue 40 item 4): `PUBLIC_URL`, else this service's own address
 * `http://localhost:$PORT`. Never a request's `Host`, `Origin` or `X-Forwarded-*` headers. Without
 * `PUBLIC_URL` nothing leaves the machine: `publicUrlProblem` stops the start when e-mail or
 * Slack is configured.
 */
export function linkBaseUrl(): string {
  return publicUrl() ?? `http://localhost:${port()}`;
}

/**
 * What is wrong with `PUBLIC_URL` for this configuration, as one line naming the fix, or null:
 * it must be an http(s) URL, and it is required when e-mail (`SMTP_URL`) or Slack (`SLACK_BOT_TOKEN`,
 * `SLACK_SIGNING_SECRET`, `SLACK_APP_TOKEN`) is configured, since their links leave the machine.
 * `npm start` checks it first and exits with this message.
 */
export function publicUrlProblem(): string | null {
  const d = deliverySettings();
  if (d.publicUrl) {
    let url: URL | null = null;
    try {
      url = new URL(d.publicUrl);
    } catch {}
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash)
      return `PUBLIC_URL must be the http:// or https:// address people open this service at, e.g. PUBLIC_URL=https://checkin.example.com (got "${d.publicUrl}").`;
    return null;
  }
  const needs = [
    d.smtpUrl ? "SMTP_URL" : null,
    d.slackBotToken ? "SLACK_BOT_TOKEN" : null,
    d.slackSigningSecret ? "SLACK_SIGNING_SECRET" : null,
    d.slackAppToken ? "SLACK_APP_TOKEN" : null,
  ].filter((n): n is string => n !== null);
  if (needs.length === 0) return null;
  return `PUBLIC_URL is required when ${needs.join(" / ")} ${needs.length === 1 ? "is" : "are"} set (links in e-mails and chat messages are built from it, never from request headers): set PUBLIC_URL to the address people open this service at, e.g. PUBLIC_URL=https://checkin.example.com`;
}

/** `AUTH_ALLOWED_DOMAINS`: comma-separated domains whose OAuth/OIDC sign-ins create a member ("" when unset). */
export function allowedSignInDomains(): string {
  return process.env.AUTH_ALLOWED_DOMAINS ?? "";
}

/** The Slack workspace of `SLACK_BOT_TOKEN` (`SLACK_API_URL`, `SLACK_TEAM`), or null when Slack is not connected. */
export function slackSettings(): { token: string; apiUrl?: string; team?: string } | null {
  const d = deliverySettings();
  return d.slackBotToken ? { token: d.slackBotToken, apiUrl: d.slackApiUrl, team: d.slackTeam } : null;
}

/** A whole number ≥ `min` from `value`, else `fallback`. */
function intSetting(value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= min ? n : fallback;
}

/** Limits of issue 13 (README "Limits"); read at call time. 0 switches a rate limit off. */
export type LimitSettings = {
  /** Largest request body in bytes, API and dashboard routes (`API_BODY_LIMIT_BYTES`, default 1 MB); 413 above it. */
  bodyLimitBytes: number;
  /** Requests per minute per API key (`RATE_LIMIT_API_PER_MINUTE`, default 600). */
  apiPerMinute: number;
  /** Requests per minute per client address without a valid key (`RATE_LIMIT_ANONYMOUS_PER_MINUTE`, default 300). */
  anonymousPerMinute: number;
  /** Failed sign-ins per account and per address in the window (`SIGN_IN_MAX_FAILURES`, default 10). */
  signInMaxFailures: number;
  /** The window of `signInMaxFailures` in minutes (`SIGN_IN_FAILURE_WINDOW_MINUTES`, default 15). */
  signInWindowMinutes: number;
  /**
   * E-mailed link requests (forgot password) per address per hour (`LINK_REQUESTS_PER_HOUR`,
   * default 5); a client address may make four times as many.
   */
  linkRequestsPerHour: number;
  /**
   * `TRUST_PROXY=true`: the client address is the last `X-Forwarded-For` hop, and the first
   * `X-Forwarded-Host` names this host for the server-action origin check (lib/http/page-guards.ts).
   */
  trustProxy: boolean;
};

export function limitSettings(): LimitSettings {
  const e = process.env;
  return {
    bodyLimitBytes: intSetting(e.API_BODY_LIMIT_BYTES, 1_048_576, 1024),
    apiPerMinute: apiPerMinuteSetting(),
    anonymousPerMinute: intSetting(e.RATE_LIMIT_ANONYMOUS_PER_MINUTE, 300),
    signInMaxFailures: intSetting(e.SIGN_IN_MAX_FAILURES, 10),
    signInWindowMinutes: intSetting(e.SIGN_IN_FAILURE_WINDOW_MINUTES, 15, 1),
    linkRequestsPerHour: intSetting(e.LINK_REQUESTS_PER_HOUR, 5),
    trustProxy: flag("TRUST_PROXY") === true,
  };
}

/**
 * `limitSettings().apiPerMinute` alone (RATE_LIMIT_API_PER_MINUTE, default 600): the API wrapper
 * reads it on every request, and reading all the limit settings each time cost about 4 µs.
 */
export function apiPerMinuteSetting(): number {
  return intSetting(process.env.RATE_LIMIT_API_PER_MINUTE, 600);
}

/** True under `next dev` (NODE_ENV=development). */
export function isDevelopment(): boolean {
  return process.env.NODE_ENV === "development";
}

/**
 * `DIRECT_DATABASE_URL`: a direct connection (not through PgBouncer) for migrations, the seed, the
 * job worker and LISTEN/NOTIFY; undefined when unset (then `DATABASE_URL` serves for these too).
 */
export function directDatabaseUrl(): string | undefined {
  return process.env.DIRECT_DATABASE_URL || undefined;
}

/** `AUTH_SECRET` or `NEXTAUTH_SECRET` when set explicitly, else undefined. */
export function explicitAuthSecret(): string | undefined {
  return process.env.AUTH_SECRET || process.env.NEXTAUTH_SECRET || undefined;
}

/** How long (ms) an API key's resolution stays in the in-process cache: `API_KEY_CACHE_TTL_MS`, default 5,000; 0 turns it off. */
export function apiKeyCacheTtlMs(): number {
  const n = Number(process.env.API_KEY_CACHE_TTL_MS ?? 5000);
  return Number.isFinite(n) && n >= 0 ? n : 5000;
}

/** Delivery settings (issue 9; documented in `.env.example`), raw strings, read at call time. */
export type DeliverySettings = {
  publicUrl: string | undefined;
  slackBotToken: string | undefined;
  slackSigningSecret: string | undefined;
  slackAppToken: string | undefined;
  slackApiUrl: string | undefined;
  slackTeam: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  webhooksAllowPrivate: boolean;
  webhookRetryDelays: number[] | undefined;
};

/**
 * `PUBLIC_URL`, `SLACK_BOT_TOKEN`, `SLACK_SIGNING_SECRET`, `SLACK_APP_TOKEN`, `SLACK_API_URL`,
 * `SLACK_TEAM`, `SMTP_URL`, `MAIL_FROM`, `WEBHOOKS_ALLOW_PRIVATE` (yes/no, see `flag`), `WEBHOOK_RETRY_DELAYS`
 * (comma-separated seconds). Empty values count as unset.
 * @throws Error naming the variable when `WEBHOOK_RETRY_DELAYS` is not a list of whole seconds.
 */
export function deliverySettings(): DeliverySettings {
  const e = process.env;
  const v = (name: string) => e[name]?.trim() || undefined;
  const delays = v("WEBHOOK_RETRY_DELAYS");
  if (delays && !/^\d+(,\d+)*$/.test(delays))
    throw new Error("WEBHOOK_RETRY_DELAYS must be comma-separated whole seconds, e.g. 5,300,1800");
  return {
    publicUrl: v("PUBLIC_URL"),
    slackBotToken: v("SLACK_BOT_TOKEN"),
    slackSigningSecret: v("SLACK_SIGNING_SECRET"),
    slackAppToken: v("SLACK_APP_TOKEN"),
    slackApiUrl: v("SLACK_API_URL"),
    slackTeam: v("SLACK_TEAM"),
    smtpUrl: v("SMTP_URL"),
    mailFrom: v("MAIL_FROM") ?? "Check-in <checkin@localhost>",
    webhooksAllowPrivate: flag("WEBHOOKS_ALLOW_PRIVATE") === true,
    webhookRetryDelays: delays ? delays.split(",").map(Number) : undefined,
  };
}

/** Connection to an OpenAI-compatible model (see lib/categorize/llm.ts). `timeoutMs` in milliseconds. */
export type LlmSettings = { baseUrl: string; apiKey?: string; model: string; timeoutMs: number };

/**
 * The language model for categorization and summaries: `LLM_BASE_URL` (http/https URL) and
 * `LLM_MODEL`, optional `LLM_API_KEY` and `LLM_TIMEOUT_MS` (100..600000, default 30000). Null when
 * either required variable is unset: everything then runs offline.
 * @throws Error naming the variable when `LLM_BASE_URL` is not an http(s) URL.
 */
export function llmSettings(): LlmSettings | null {
  const e = process.env;
  if (!e.LLM_BASE_URL || !e.LLM_MODEL) return null;
  let url: URL;
  try {
    url = new URL(e.LLM_BASE_URL);
  } catch {
    throw new Error(`LLM_BASE_URL is not a URL: ${e.LLM_BASE_URL}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("LLM_BASE_URL must be an http:// or https:// URL");
  const timeout = Number(e.LLM_TIMEOUT_MS ?? 30000);
  return {
    baseUrl: e.LLM_BASE_URL,
    apiKey: e.LLM_API_KEY || undefined,
    model: e.LLM_MODEL,
    timeoutMs: Number.isInteger(timeout) && timeout >= 100 && timeout <= 600000 ? timeout : 30000,
  };
}

/** Backup folder of the embedded database (WAL archive + base backups): `CHECKIN_BACKUP_DIR`, default `<dataDir()>/backups`, absolute. */
export function backupDir(dir = dataDir()): string {
  const set = process.env.CHECKIN_BACKUP_DIR?.trim();
  return path.resolve(/*turbopackIgnore: true*/ set || path.join(dir, "backups"));
}

/** Base backups kept by `npm run backup` and the nightly backup: `CHECKIN_BACKUP_KEEP`, default 7 (at least 1). */
export function backupKeep(): number {
  return intSetting(process.env.CHECKIN_BACKUP_KEEP, 7, 1);
}

/**
 * Checks the whole configuration at start-up (issue 44; lib/env-check.ts): one line per problem,
 * naming the variable and the fix (invalid PORT, malformed DATABASE_URL / PUBLIC_URL / SMTP_URL,
 * half-set OAuth pairs, contradictory settings, ...); empty when usable. For the launcher to print
 * and exit 1 on before starting anything.
 */
export function validateEnvironment(): string[] {
  return environmentProblems(process.env);
}

/** `METRICS_TOKEN`: the bearer token of `GET /metrics`; undefined (then /metrics answers 404) when unset or empty. */
export function metricsToken(): string | undefined {
  return process.env.METRICS_TOKEN?.trim() || undefined;
}

/** `LOG_LEVEL`: the lowest level logged (trace, debug, info, warn, error, fatal, silent); default info. */
export function logLevel(): string {
  return process.env.LOG_LEVEL?.trim().toLowerCase() || "info";
}

/**
 * `LOG_FORMAT`: `json` (one JSON object per line, the default) or `pretty` (human-readable lines,
 * the default of `npm run dev`, see `defaultToPrettyLogs`).
 */
export function logFormat(): "json" | "pretty" {
  return process.env.LOG_FORMAT?.trim().toLowerCase() === "pretty" ? "pretty" : "json";
}

/** `npm run dev`: human-readable logs for this process and the ones it starts, unless `LOG_FORMAT` is set. */
export function defaultToPrettyLogs(): void {
  if (!process.env.LOG_FORMAT?.trim()) process.env.LOG_FORMAT = "pretty";
}

/** `CHECKIN_COMMIT`: the git commit shown in Settings → System (set it for builds without `.git`); undefined when unset. */
export function commitSetting(): string | undefined {
  return process.env.CHECKIN_COMMIT?.trim() || undefined;
}

/**
 * Defaults of `npm run config` (issue 43, check-ins as code): `CHECKIN_API_URL` (the service's base
 * URL, default `http://localhost:<PORT>`) and `CHECKIN_API_KEY` (an admin's API key); the
 * `--url` / `--key` options override them.
 */
export function configCliSettings(): { url: string; key: string | undefined } {
  return {
    url: process.env.CHECKIN_API_URL?.trim() || `http://localhost:${port()}`,
    key: process.env.CHECKIN_API_KEY?.trim() || undefined,
  };
}
