/**
 * The MCP server of one request (issue 48, "An MCP server for assistants"): `createMcpServer(actor)`
 * builds a server whose tools (lib/mcp/tools.ts) and resources answer for `actor`, the user of the
 * API key that authenticated the request. Stateless, as the SDK's stateless Streamable HTTP
 * example: a new server and transport per POST /mcp (lib/mcp/http.ts), nothing kept between calls.
 *
 * Resource: `checkin://standups/{standup_id}/reports`, a standup's reports of the last 7 days
 * (newest first, at most 25, with answers): the text of GET /v2/reports?standup_id=… for the
 * caller; listed for every standup the caller can see.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { parseWith } from "@/lib/api/query";
import { runList } from "@/lib/api/route";
import { reportList, reportListQuerySchema } from "@/lib/api/v2/reports";
import { checkinListQuerySchema, toCheckinListFilters } from "@/lib/api/v2/standups";
import { listCheckinWires } from "@/lib/api/v2/standups-sql";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import { registerTools } from "@/lib/mcp/tools";

/** Name and version the server reports in `initialize`. */
export const MCP_SERVER_INFO = { name: "team-checkin", version: "1.0.0" } as const;

/** The URI template of a standup's recent reports. */
export const STANDUP_REPORTS_TEMPLATE = "checkin://standups/{standup_id}/reports";

/** At most this many standups are listed as resources. */
const LISTED_STANDUPS = 100;

/** A new MCP server answering for `actor` (see the module comment). */
export function createMcpServer(actor: Actor): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions:
      "Team check-in service: standups (questions, reports), polls (results, votes), participation and blockers, " +
      "as the caller's API key sees them. Use get_standup for question ids before post_report.",
  });
  registerTools(server, actor);
  server.registerResource(
    "standup-reports",
    new ResourceTemplate(STANDUP_REPORTS_TEMPLATE, { list: () => listStandupResources(actor) }),
    {
      title: "A standup's recent reports",
      description: "Reports of the last 7 days, newest first (at most 25).",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const raw = String(variables.standup_id ?? "");
      if (!/^\d{1,9}$/.test(raw)) throw new NotFoundError("Standup not found");
      const query = parseWith(reportListQuerySchema, { standup_id: raw });
      const response = await runList(reportList, { actor, id: 0, query });
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: await response.text() }] };
    },
  );
  return server;
}

/** The resources of the standups `actor` can see (the first `LISTED_STANDUPS`, oldest first). */
async function listStandupResources(actor: Actor) {
  const { filters } = toCheckinListFilters(parseWith(checkinListQuerySchema, { limit: String(LISTED_STANDUPS) }), "v2.standups");
  const rows = await listCheckinWires(actor, "standup", filters, filters.parts);
  return {
    resources: rows.slice(0, LISTED_STANDUPS).map((row) => {
      const standup = JSON.parse(row.json) as { id: number; name: string };
      return {
        uri: STANDUP_REPORTS_TEMPLATE.replace("{standup_id}", String(standup.id)),
        name: `Reports of ${standup.name}`,
        mimeType: "application/json",
      };
    }),
  };
}
