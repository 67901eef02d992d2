/**
 * A local Standard Webhooks receiver for tests (issue 9 "Tests"): an HTTP server on 127.0.0.1
 * that verifies each delivery's `webhook-id` / `webhook-timestamp` / `webhook-signature` headers
 * with the `standardwebhooks` library and the endpoint's secret (`whsec_...`), and records it.
 *
 * `respondWith([500, 500, 200])` scripts the status of the next answers (then 200); `setSecret`
 * sets the secret once the API has returned it. A delivery is "accepted" when its signature
 * verified and the receiver answered 2xx.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type ReceivedWebhook = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  verified: boolean;
  error: string | null;
  status: number;
  at: number;
};

export type WebhookReceiver = {
  url: string;
  received: ReceivedWebhook[];
  /** Verified deliveries answered 2xx. */
  accepted: () => ReceivedWebhook[];
  setSecret: (secret: string) => void;
  respondWith: (statuses: number[]) => void;
  waitFor: (predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
};

export async function startWebhookReceiver(opts: { secret?: string; path?: string } = {}): Promise<WebhookReceiver> {
  let secret = opts.secret ?? null;
  const script: number[] = [];
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      let verified = false;
      let error: string | null = null;
      let payload: ReceivedWebhook["payload"] = null;
      try {
        if (!secret) throw new Error("receiver has no secret");
        payload = new Webhook(secret).verify(body, headers) as ReceivedWebhook["payload"];
        verified = true;
      } catch (err) {
        error = (err as Error).message;
      }
      const status = verified ? (script.shift() ?? 200) : 401;
      received.push({
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        body,
        payload,
        verified,
        error,
        status,
        at: Date.now(),
      });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${opts.path ?? "/hooks"}`,
    received,
    accepted: () => received.filter((r) => r.verified && r.status < 300),
    setSecret: (s) => {
      secret = s;
    },
    respondWith: (statuses) => {
      script.push(...statuses);
    },
    waitFor: async (predicate, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: timed out after ${timeoutMs} ms (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
