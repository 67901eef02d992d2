/**
 * The server preload (lib/runtime/next-preload.cjs) in a real Node process in front of a stand-in
 * for Next that echoes what it receives (issue 40): on API paths a malformed path and a method no
 * route can serve are handed to the app (`/v1|v2/_refused` + `x-checkin-refused`, an unknown method
 * as GET) so that the catch-alls answer them with the RateLimit headers; a client's own
 * `x-checkin-refused` is removed; an OPTIONS with a malformed path and every non-API path are still
 * answered by the preload itself, as before.
 */
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PRELOAD = path.resolve(import.meta.dirname, "../../lib/runtime/next-preload.cjs");
const ECHO = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ method: req.method, url: req.url, refused: req.headers["x-checkin-refused"] ?? null }));
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

let child: ChildProcess;
let port = 0;

beforeAll(async () => {
  child = spawn(process.execPath, ["--require", PRELOAD, "-e", ECHO], { stdio: ["ignore", "pipe", "inherit"] });
  port = await new Promise<number>((resolve, reject) => {
    // The preload sends console lines through the JSON logger (issue 44): the port is the first line's `msg`.
    child.stdout?.once("data", (d: Buffer) => resolve(Number((JSON.parse(String(d).split("\n")[0]) as { msg: string }).msg)));
    child.once("exit", (code) => reject(new Error(`echo server exited with ${code}`)));
  });
});

afterAll(() => {
  child?.kill();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: unknown };

/** One raw request (fetch refuses TRACE and would normalise the path). */
function send(method: string, rawPath: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: rawPath, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("server preload refusals", () => {
  it("lets the probes through: /healthz, /readyz and /metrics reach the app (issue 44)", async () => {
    for (const probe of ["/healthz", "/readyz", "/metrics"]) {
      for (const method of ["GET", "HEAD"]) {
        const answer = await send(method, probe, { host: "10.0.0.7:3000", authorization: "Bearer t" });
        expect(answer.status).toBe(200);
        if (method === "GET") expect(answer.body).toEqual({ method, url: probe, refused: null });
      }
    }
  });

  it("hands a malformed API path to the app's catch-all, keeping the method", async () => {
    expect((await send("GET", "/v2/standups/%FF")).body).toEqual({ method: "GET", url: "/v2/_refused", refused: "malformed-path" });
    expect((await send("POST", "/v1/standups/%E0%A4/start?x=1")).body).toEqual({
      method: "POST",
      url: "/v1/_refused",
      refused: "malformed-path",
    });
    expect((await send("HEAD", "/v2/reports/%FF")).status).toBe(200);
  });

  it("hands an unknown method on an API path to the app as a GET naming it", async () => {
    expect((await send("TRACE", "/v2/standups")).body).toEqual({ method: "GET", url: "/v2/_refused", refused: "method=TRACE" });
    expect((await send("PROPFIND", "/v1/me")).body).toEqual({ method: "GET", url: "/v1/_refused", refused: "method=PROPFIND" });
    expect((await send("TRACE", "/v2")).body).toMatchObject({ url: "/v2/_refused", refused: "method=TRACE" });
  });

  it("removes a client's own x-checkin-refused and leaves clean requests alone", async () => {
    const r = await send("GET", "/v2/nothing?x=%41", { "x-checkin-refused": "malformed-path" });
    expect(r.body).toEqual({ method: "GET", url: "/v2/nothing?x=%41", refused: null });
  });

  it("still answers itself: OPTIONS with a malformed API path, and every non-API path", async () => {
    const options = await send("OPTIONS", "/v2/standups/%FF");
    expect(options).toMatchObject({ status: 400, body: { error: { code: "INVALID_PARAMETER" } } });
    expect(options.headers.ratelimit).toBeUndefined();
    expect(await send("GET", "/overview/%FF")).toMatchObject({ status: 400, body: { error: { code: "INVALID_PARAMETER" } } });
    const trace = await send("TRACE", "/overview");
    expect(trace).toMatchObject({ status: 405, body: { error: { code: "METHOD_NOT_ALLOWED" } } });
    expect(trace.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    // "/v2x" is no API path.
    expect((await send("TRACE", "/v2x")).status).toBe(405);
  });
});
