/**
 * A raw HTTP/1.1 client for the specs that send what Playwright's and fetch's clients refuse or
 * rewrite: any method, an empty or forged Host, chunked bodies of any size, a Content-Length the
 * body does not reach. The answer is resolved as soon as it is complete, even while the body is
 * still being sent (the upload then stops), so a server that refuses a large body early is seen
 * doing so; `sent` tells how many body bytes left the client by then.
 */
import http from "node:http";

const BASE = new URL(process.env.BASE_URL ?? "http://localhost:3000");

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string; ms: number; sent: number };

export type RawBody =
  | string
  | Buffer
  /** `size` bytes of filler, sent in 64 kB pieces; `chunked` sends no Content-Length. */
  | { size: number; chunked: boolean };

/** One request; rejects only when no answer arrived (connection refused or reset before it). */
export function rawHttp(opts: {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: RawBody;
  localAddress?: string;
  timeoutMs?: number;
}): Promise<RawResponse> {
  const started = Date.now();
  // keep-alive (not the `close` of agent-less requests): a server that answers before the body
  // ended then reads the rest instead of closing, so the answer is not lost to a reset.
  const headers: Record<string, string> = { Connection: "keep-alive", ...opts.headers };
  const hasHost = Object.keys(headers).some((k) => k.toLowerCase() === "host");
  const body = opts.body;
  const stream = typeof body === "object" && !Buffer.isBuffer(body) ? body : undefined;
  if (stream && !stream.chunked) headers["Content-Length"] ??= String(stream.size);
  // Node's client sends no length for the body of a GET, OPTIONS or DELETE unless told.
  if (body !== undefined && !stream) headers["Content-Length"] ??= String(Buffer.byteLength(body as string | Buffer));
  if (stream?.chunked) headers["Transfer-Encoding"] = "chunked";
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(
      {
        host: BASE.hostname,
        port: BASE.port,
        method: opts.method,
        path: opts.path,
        headers,
        setHost: !hasHost,
        localAddress: opts.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        const declared = Number(res.headers["content-length"] ?? Number.NaN);
        // As a browser does: the answer is complete once its declared length arrived, whatever
        // happens to the rest of an upload the server refused (a write may then fail with EPIPE).
        const settle = () => {
          if (answered) return;
          answered = true;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: Date.now() - started,
            sent,
          });
          req.destroy();
        };
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          received += c.length;
          if (received >= declared) settle();
        });
        res.on("end", settle);
      },
    );
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer within ${opts.timeoutMs ?? 30_000} ms`)));
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    if (!stream) {
      if (body !== undefined) sent = Buffer.byteLength(body as string | Buffer);
      req.end(body as string | Buffer | undefined);
      return;
    }
    const piece = Buffer.alloc(65_536, 0x61);
    const pump = () => {
      while (!answered && !req.destroyed && sent < stream.size) {
        const n = Math.min(piece.length, stream.size - sent);
        sent += n;
        if (!req.write(n === piece.length ? piece : piece.subarray(0, n))) return void req.once("drain", pump);
      }
      if (!answered && !req.destroyed) req.end();
    };
    pump();
  });
}
