/**
 * A real HTTP server on 127.0.0.1 in front of route handlers of this service (in process, the
 * test database), for clients that need a URL rather than a handler function (the MCP SDK's
 * Streamable HTTP client, issue 48). `routes` maps a path to its route module's handlers by method;
 * any other path answers 404. Bodies are passed through whole.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

// biome-ignore lint/suspicious/noExplicitAny: each route module has its own params shape
type Handler = (request: Request, context: { params: Promise<any> }) => Promise<Response> | Response;

export type RouteServer = { url: string; close: () => Promise<void> };

/** Starts the server on an ephemeral port. */
export async function startRouteServer(routes: Record<string, Partial<Record<string, Handler>>>): Promise<RouteServer> {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const handler = routes[url.pathname]?.[req.method ?? "GET"];
      if (!handler) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found" }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
      const request = new Request(url, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined });
      const response = await handler(request, { params: Promise.resolve({}) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(599).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
