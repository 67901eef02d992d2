/**
 * POST /mcp (issue 48): the MCP Streamable HTTP endpoint, stateless (the SDK's
 * `WebStandardStreamableHTTPServerTransport` without session ids, JSON responses; a new server and
 * transport per request, lib/mcp/server.ts). The request goes through the API's own wrapper
 * (lib/api/handler.ts `apiRoute`): the API key (raw or `Bearer`) authenticates it (401 in the v2
 * error shape, with `WWW-Authenticate: Bearer`, never a 500), it counts against the key's rate limit
 * like any API request (429 + `RateLimit` headers) and its body is read under the API's body limit
 * (API_BODY_LIMIT_BYTES: 413; malformed JSON: 400). Responses carry the API headers (no-store,
 * nosniff, CORS). GET and DELETE (SSE streams and sessions, which a stateless server has none of)
 * answer 405 with a JSON-RPC error, as the SDK's stateless example does.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { API_HEADERS } from "@/lib/api/errors";
import { apiRoute, publicAnswer, withHeaders } from "@/lib/api/handler";
import { readJson } from "@/lib/api/query";
import { createMcpServer } from "@/lib/mcp/server";
import { timedRoute } from "@/lib/metrics/registry";

/** The API headers without Content-Type (the transport sets its own). */
const { "Content-Type": _contentType, ...MCP_HEADERS } = API_HEADERS;

/** POST /mcp: one JSON-RPC message (or batch) for the caller's fresh stateless server. */
export const mcpPost = timedRoute(
  "/mcp",
  "POST",
  unauthorizedChallenge(
    apiRoute("v2", async ({ request, actor }) => {
      const body = await readJson(request);
      const server = createMcpServer(actor);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        // With JSON responses the answer is complete once this resolves, so the server can close.
        return withHeaders(await transport.handleRequest(request, { parsedBody: body }), MCP_HEADERS);
      } finally {
        await server.close();
      }
    }),
  ),
);

/** Adds `WWW-Authenticate: Bearer` to a 401 (RFC 9110 §15.5.2), which MCP clients look for. */
function unauthorizedChallenge<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    const response = await handler(request, context);
    return response.status === 401 ? withHeaders(response, { "WWW-Authenticate": 'Bearer realm="checkin"' }) : response;
  };
}

/** GET, DELETE, PUT, PATCH /mcp: 405 with a JSON-RPC error (no SSE stream, no session: stateless). */
export const mcpNotAllowed = publicAnswer("v2", async (request: Request) => {
  const message = `Method ${request.method} not allowed: this MCP server is stateless; send JSON-RPC messages with POST`;
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status: 405,
    headers: { ...API_HEADERS, Allow: "POST, OPTIONS" },
  });
});

/** OPTIONS /mcp: the CORS preflight, allowing the MCP headers. */
export function mcpPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...API_HEADERS,
      "Access-Control-Allow-Methods": "POST, OPTIONS",
      "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
      "Access-Control-Max-Age": "86400",
    },
  });
}
