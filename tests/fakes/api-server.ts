/**
 * A real HTTP server on 127.0.0.1 in front of this service's own route handlers (in process, the
 * test database): a second instance of the service as a Geekbot-compatible source for import tests
 * (issue 43), without a production build. `fault` may answer a request instead (429, 5xx) to play
 * a misbehaving source. Also serves the "check-ins as code" routes (GET/POST /v2/config...) for the
 * `npm run config` client's tests.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as v1Me from "@/app/v1/me/route";
import * as v1PollVotes from "@/app/v1/polls/[id]/votes/route";
import * as v1Polls from "@/app/v1/polls/route";
import * as v1Reports from "@/app/v1/reports/route";
import * as v1Standups from "@/app/v1/standups/route";
import * as v1Teams from "@/app/v1/teams/route";
import * as v2ConfigApply from "@/app/v2/config/apply/route";
import * as v2ConfigPlan from "@/app/v2/config/plan/route";
import * as v2Config from "@/app/v2/config/route";
import * as v2ConfigSchema from "@/app/v2/config.schema.json/route";
import * as v2Participation from "@/app/v2/standups/[standupId]/participation/route";
import * as v2Standups from "@/app/v2/standups/route";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Path patterns (trailing slash optional) → the route module (its GET, POST, ... handlers); named groups become route params. */
const ROUTES: [RegExp, object][] = [
  [/^\/v1\/me\/?$/, v1Me],
  [/^\/v1\/teams\/?$/, v1Teams],
  [/^\/v1\/standups\/?$/, v1Standups],
  [/^\/v1\/reports\/?$/, v1Reports],
  [/^\/v1\/polls\/?$/, v1Polls],
  [/^\/v1\/polls\/(?<id>\d+)\/votes\/?$/, v1PollVotes],
  [/^\/v2\/standups\/?$/, v2Standups],
  [/^\/v2\/standups\/(?<standupId>\d+)\/participation\/?$/, v2Participation],
  [/^\/v2\/config\/?$/, v2Config],
  [/^\/v2\/config\/plan\/?$/, v2ConfigPlan],
  [/^\/v2\/config\/apply\/?$/, v2ConfigApply],
  [/^\/v2\/config\.schema\.json$/, v2ConfigSchema],
];

export type ApiServer = {
  url: string;
  /** Requests served, by path without query (faults included). */
  hits: Map<string, number>;
  /** Answers a request itself when it returns a response (429, 503, ...). */
  fault: ((path: string, hit: number) => { status: number; headers?: Record<string, string> } | null) | null;
  close: () => Promise<void>;
};

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startApiServer(): Promise<ApiServer> {
  const state: ApiServer = { url: "", hits: new Map(), fault: null, close: async () => {} };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const hit = (state.hits.get(url.pathname) ?? 0) + 1;
    state.hits.set(url.pathname, hit);
    const fault = state.fault?.(url.pathname, hit);
    if (fault) {
      res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
      res.end(JSON.stringify({ error: "injected fault" }));
      return;
    }
    const route = ROUTES.find(([re]) => re.test(url.pathname));
    const handler = route && ((route[1] as Record<string, unknown>)[req.method ?? "GET"] as Handler | undefined);
    if (!route || !handler) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "Not found" }));
      return;
    }
    const params = { ...(route[0].exec(url.pathname)?.groups ?? {}) };
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
    try {
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body });
      const response = await handler(request, { params: Promise.resolve(params) });
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (e) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: String(e) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
