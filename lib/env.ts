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
  /** Largest API request body in bytes (413 above it). */
  API_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Requests per minute per API key (0 switches the limit off). */
  RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /** Requests per minute per client IP that carry no valid API key (0: off). */
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  /** Failed dashboard sign-ins per account and per IP within the window before 429 (0: off). */
  SIGN_IN_MAX_FAILURES: z.coerce.number().int().min(0).default(10),
  /** Window of SIGN_IN_MAX_FAILURES, in minutes. */
  SIGN_IN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** "true": take the client IP from the last X-Forwarded-For hop (behind your own reverse proxy). */
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
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
