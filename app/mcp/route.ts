/** /mcp (issue 48): the MCP server for assistants; see lib/mcp/http.ts. */
import { mcpNotAllowed, mcpPost, mcpPreflight } from "@/lib/mcp/http";

export const POST = mcpPost;
export const GET = mcpNotAllowed;
export const DELETE = mcpNotAllowed;
export const PUT = mcpNotAllowed;
export const PATCH = mcpNotAllowed;
export const OPTIONS = mcpPreflight;
