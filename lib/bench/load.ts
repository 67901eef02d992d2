/**
 * One HTTP load run for `npm run bench` (scripts/bench.ts): wrk when it is on PATH (Debian:
 * `apt-get install -y wrk`), else autocannon (a dev dependency). Both keep `connections` keep-alive
 * connections busy for `seconds` and report requests/s and latency percentiles in milliseconds.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

export type LoadRequest = {
  url: string;
  /**
   * Paths (on `url`'s origin) to send in turn, one per request, instead of `url`'s own path: e.g.
   * the reports an edit goes over, which would otherwise all queue on one row's lock.
   */
  paths?: string[];
  /**
   * Bodies to send in turn with `paths`, one per pass over them (request n: path n mod P, body
   * ⌊n / P⌋ mod B), so that each path gets a different body than the last time: e.g. edits that
   * change a report every time. Default: `body` always.
   */
  bodies?: string[];
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE" | "OPTIONS";
  headers?: Record<string, string>;
  body?: string;
};

export type LoadResult = { rps: number; p50: number; p99: number; requests: number; non2xx: number };

let wrkPath: string | null | undefined;

/** The wrk binary on PATH, or null. */
export function findWrk(): string | null {
  if (wrkPath !== undefined) return wrkPath;
  try {
    wrkPath = execFileSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).trim() || null;
  } catch {
    wrkPath = null;
  }
  return wrkPath;
}

/** Milliseconds from a wrk duration such as "812.00us", "8.12ms" or "1.02s". */
function wrkMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return Number.NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "ms" ? v : m[2] === "s" ? v * 1000 : v * 60_000;
}

/** A Lua script giving wrk the method, headers and body (wrk's -H cannot set a body). */
function wrkScript(req: LoadRequest): string {
  const lines = [`wrk.method = ${JSON.stringify(req.method ?? "GET")}`];
  for (const [k, v] of Object.entries(req.headers ?? {})) lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  if (req.body !== undefined) lines.push(`wrk.body = ${JSON.stringify(req.body)}`);
  if (req.paths?.length) {
    lines.push(`local paths = { ${req.paths.map((p) => JSON.stringify(p)).join(", ")} }`);
    lines.push("local n = 0");
    if (req.bodies?.length) {
      lines.push(`local bodies = { ${req.bodies.map((b) => JSON.stringify(b)).join(", ")} }`);
      lines.push(
        "request = function() n = n + 1; return wrk.format(nil, paths[(n % #paths) + 1], nil, bodies[(math.floor(n / #paths) % #bodies) + 1]) end",
      );
    } else lines.push("request = function() n = n + 1; return wrk.format(nil, paths[(n % #paths) + 1]) end");
  }
  const file = path.join(os.tmpdir(), `checkin-bench-${process.pid}.lua`);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

async function runWrk(bin: string, req: LoadRequest, connections: number, seconds: number): Promise<LoadResult> {
  const script = wrkScript(req);
  const args = ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "--timeout", "10s", "-s", script, req.url];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (c) => {
      text += c;
    });
    child.stderr.on("data", (c) => {
      text += c;
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  const pick = (re: RegExp) => re.exec(out)?.[1] ?? "";
  const requests = Number(pick(/(\d+) requests in/));
  const non2xx = Number(pick(/Non-2xx or 3xx responses: (\d+)/) || 0);
  const errors = /Socket errors: (.*)/.exec(out)?.[1];
  if (errors && /timeout [1-9]/.test(errors)) console.warn(`  wrk: socket errors (${errors}) on ${req.url}`);
  return {
    rps: Number(pick(/Requests\/sec:\s+([\d.]+)/)),
    p50: wrkMs(pick(/\s50%\s+(\S+)/)),
    p99: wrkMs(pick(/\s99%\s+(\S+)/)),
    requests,
    non2xx,
  };
}

async function runAutocannon(req: LoadRequest, connections: number, seconds: number): Promise<LoadResult> {
  const r = await autocannon({
    url: req.url,
    method: req.method ?? "GET",
    headers: req.headers,
    body: req.body,
    ...(req.paths?.length
      ? { requests: (req.bodies?.length ? req.bodies : [req.body]).flatMap((body) => (req.paths ?? []).map((p) => ({ path: p, body }))) }
      : {}),
    connections,
    duration: seconds,
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, non2xx: r.non2xx };
}

/** Runs one load test; `tool` "auto" picks wrk when installed. */
export function runLoad(
  req: LoadRequest,
  opts: { connections: number; seconds: number; tool?: "auto" | "wrk" | "autocannon" },
): Promise<LoadResult> {
  const tool = opts.tool ?? "auto";
  const bin = tool === "autocannon" ? null : findWrk();
  if (tool === "wrk" && !bin) throw new Error("wrk is not installed (apt-get install -y wrk)");
  return bin ? runWrk(bin, req, opts.connections, opts.seconds) : runAutocannon(req, opts.connections, opts.seconds);
}
