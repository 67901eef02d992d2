/**
 * Turning API answers into MCP tool results (issue 48, "An MCP server for assistants"): every tool
 * builds the same `Response` the v2 API sends for the same request (same renderers, same errors),
 * and its text becomes the tool's one text content. An error answer (status >= 400) is a tool
 * error (`isError: true`) whose text is the v2 error body `{"error": {"code", "message"}}`, so an
 * assistant sees NOT_FOUND, INVALID_PARAMETER... exactly as an API client would.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toErrorResponse } from "@/lib/api/errors";

/** Query-string form of typed tool arguments: undefined dropped, arrays joined by ",", the rest `String()`. */
export function toQuery(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    out[key] = Array.isArray(value) ? value.join(",") : String(value);
  }
  return out;
}

/** The tool result of an API answer: its body as text; `isError` for a status of 400 or more. */
export async function toolResult(response: Response): Promise<CallToolResult> {
  const text = await response.text();
  return { content: [{ type: "text", text }], ...(response.status >= 400 && { isError: true }) };
}

/**
 * Runs `answer` and turns its response, or what it throws (mapped as the v2 API maps errors:
 * lib/api/errors.ts `toErrorResponse`), into a tool result. Never throws.
 */
export async function answerTool(answer: () => Promise<Response>): Promise<CallToolResult> {
  let response: Response;
  try {
    response = await answer();
  } catch (err) {
    response = toErrorResponse("v2", err);
  }
  return toolResult(response);
}
