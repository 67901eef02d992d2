/**
 * Calls a Next.js route handler function directly with a real Request (no server), the way Next
 * does: `handler(request, { params: Promise })`. Integration tests use it against the real database.
 */
type Handler = (request: Request, context: { params: Promise<any> }) => Promise<Response>;

export type CallResult = { status: number; body: any; headers: Headers; text: string };

/** Sends a request to `handler`. `key` goes into Authorization as-is unless `bearer`. */
export async function call(
  handler: Handler,
  opts: {
    method?: string;
    path: string;
    key?: string;
    bearer?: boolean;
    body?: unknown;
    rawBody?: string;
    params?: Record<string, string | string[]>;
    headers?: Record<string, string>;
  },
): Promise<CallResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = opts.bearer ? `Bearer ${opts.key}` : opts.key;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] = "application/json";
  }
  const request = new Request(`http://localhost${opts.path}`, { method: opts.method ?? "GET", headers, body });
  const response = await handler(request, { params: Promise.resolve(opts.params ?? {}) });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed, headers: response.headers, text };
}
