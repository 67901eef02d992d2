/**
 * The service's real API route handlers behind a plain Node HTTP server, for running under the
 * server preload (`node --require lib/runtime/next-preload.cjs --import tsx tests/fakes/logged-server.ts`)
 * as `next start` runs them (issue 44: request ids and the request log line). Paths map onto route
 * files as Next.js would (named groups become params); the request body is passed on. Prints
 * `listening on <port>` (through the preload's logger) once it serves. Uses DATABASE_URL.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as healthz from "@/app/healthz/route";
import * as v2Reports from "@/app/v2/reports/route";
import * as v2Standup from "@/app/v2/standups/[standupId]/route";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Record<string, unknown>;

const ROUTES: [RegExp, RouteModule][] = [
  [/^\/healthz$/, healthz],
  [/^\/v2\/reports\/?$/, v2Reports],
  [/^\/v2\/standups\/(?<standupId>[^/]+)\/?$/, v2Standup],
];

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const route = ROUTES.find(([re]) => re.test(url.pathname));
  const handler = route?.[1][req.method ?? "GET"] as Handler | undefined;
  if (!route || !handler) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":{"code":"NOT_FOUND"}}');
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const body = chunks.length && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body });
  const response = await handler(request, { params: Promise.resolve({ ...(route[0].exec(url.pathname)?.groups ?? {}) }) });
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, "127.0.0.1", () => console.log(`listening on ${(server.address() as AddressInfo).port}`));
