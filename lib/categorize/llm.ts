/**
 * A minimal client for an OpenAI-compatible chat-completions endpoint (`POST {base}/chat/completions`),
 * with plain `fetch` (no SDK: the current `openai` SDK needs Node 22). Used by categorization and
 * occurrence summaries when `LLM_BASE_URL` and `LLM_MODEL` are set (lib/env.ts); every caller
 * falls back to the offline engine when this throws.
 *
 * The model is asked for a JSON object (`response_format: {type: "json_object"}`, temperature 0);
 * the reply's content is parsed and validated with the caller's zod schema.
 */
import type { z } from "zod";
import { type LlmSettings, llmSettings } from "@/lib/env";

/** Connection to the model. `timeoutMs`: whole-request deadline in milliseconds. */
export type LlmConfig = LlmSettings;

/** Any failure talking to the model: network, timeout, HTTP status, unparsable or invalid JSON. */
export class LlmError extends Error {
  override name = "LlmError";
}

/** The model configured by the environment, or null when `LLM_BASE_URL` or `LLM_MODEL` is unset. */
export function llmConfigFromEnv(): LlmConfig | null {
  return llmSettings();
}

/**
 * Sends one chat completion and returns the reply's JSON content validated with `schema`.
 * @param messages system and user messages (the caller decides what they contain: never identities
 *   of anonymous respondents).
 * @throws LlmError on any failure (see the class).
 */
export async function completeJson<T>(
  config: LlmConfig,
  messages: Array<{ role: "system" | "user"; content: string }>,
  schema: z.ZodType<T>,
): Promise<T> {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: config.model, messages, temperature: 0, response_format: { type: "json_object" } }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    body = await response.text();
  } catch (err) {
    const e = err as Error;
    throw new LlmError(
      e.name === "TimeoutError" ? `model did not answer within ${config.timeoutMs} ms` : `model unreachable: ${e.message}`,
    );
  }
  if (!response.ok) throw new LlmError(`model answered HTTP ${response.status}: ${body.slice(0, 200)}`);
  let content: unknown;
  try {
    const parsed = JSON.parse(body) as { choices?: Array<{ message?: { content?: unknown } }> };
    content = parsed.choices?.[0]?.message?.content;
    if (typeof content !== "string") throw new Error("no choices[0].message.content");
    content = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch (err) {
    throw new LlmError(`model reply is not JSON: ${(err as Error).message}`);
  }
  const result = schema.safeParse(content);
  if (!result.success) {
    throw new LlmError(`model reply does not match the expected shape: ${result.error.issues[0]?.message ?? "invalid"}`);
  }
  return result.data;
}
