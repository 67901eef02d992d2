/**
 * A local fake of an OpenAI-compatible chat-completions server on 127.0.0.1 (random port) for
 * tests: records every request (headers and parsed body) and answers with what the test's
 * `respond` returns — a JSON object (sent as the assistant message content), `{status, body}` for
 * an HTTP error, or "hang" to never answer (timeouts).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

// biome-ignore lint/suspicious/noExplicitAny: a recorded JSON body is read freely by tests
export type RecordedRequest = { path: string; headers: http.IncomingHttpHeaders; body: any };
export type FakeReply = { content: unknown } | { status: number; body: string } | "hang";

export type FakeOpenAi = {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Decides the reply of each request (default: an empty JSON object as content). */
  respond: (request: RecordedRequest) => FakeReply;
  close: () => Promise<void>;
};

/** Starts the fake; `close()` stops it (and drops hanging requests). */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const sockets = new Set<import("node:net").Socket>();
  const fake: FakeOpenAi = {
    baseUrl: "",
    requests: [],
    respond: () => ({ content: {} }),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      const recorded = { path: req.url ?? "", headers: req.headers, body };
      fake.requests.push(recorded);
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const reply = fake.respond(recorded);
      if (reply === "hang") return;
      if ("status" in reply) {
        res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
        return;
      }
      const completion = {
        id: `chatcmpl-${fake.requests.length}`,
        object: "chat.completion",
        model: (body as { model?: string } | null)?.model,
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(reply.content) } }],
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return fake;
}
