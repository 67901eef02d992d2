/**
 * Reading a request body under a byte limit (issue 13 for the API, issue 40 for every other
 * POST: the sign-in routes, Slack's inbound requests). Next.js route handlers have no body limit
 * of their own (vercel/next.js#57501), so each reader that takes a body counts its bytes.
 */

/** The client closed the connection before the whole body arrived. */
export class BodyAbortedError extends Error {
  constructor() {
    super("The request body was not received completely (the connection was closed)");
  }
}

/** Parses a `Content-Length` header; undefined when absent or not a plain decimal number. */
export function declaredLength(request: Request): number | undefined {
  const declared = request.headers.get("content-length")?.trim();
  return declared && /^\d+$/.test(declared) ? Number(declared) : undefined;
}

/**
 * Reads the whole body, refusing more than `limit` bytes: first on `Content-Length`, then by
 * counting while streaming (chunked bodies, lying headers), so an oversized body is never held in
 * memory. Past the limit the stream is left unread rather than cancelled: cancelling destroys the
 * connection, and a client still sending would see a reset instead of the 413; left alone, the
 * upload stalls (backpressure) until the client reads the answer and stops, or the server's
 * request timeout (HTTP_REQUEST_TIMEOUT_MS) closes the connection.
 * @returns the bytes, or `null` when the body is larger than `limit` bytes
 * @throws BodyAbortedError when the client closed the connection mid-body
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Buffer | null> {
  if ((declaredLength(request) ?? 0) > limit) {
    await request.body?.cancel().catch(() => {});
    return null;
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // Node's "aborted" (code ECONNRESET): a client error, not a lost database connection.
      throw new BodyAbortedError();
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
