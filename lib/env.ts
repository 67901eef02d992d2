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
  /** OpenAI-compatible endpoint (e.g. http://127.0.0.1:11434/v1) for categorization and summaries; unset: offline only. */
  LLM_BASE_URL: z.string().url().optional(),
  /** Bearer token sent to LLM_BASE_URL, when it needs one. */
  LLM_API_KEY: z.string().min(1).optional(),
  /** Model name sent to LLM_BASE_URL (required with it). */
  LLM_MODEL: z.string().min(1).optional(),
  /** Milliseconds before a model request is abandoned for the offline engine. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600000).default(30000),
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
