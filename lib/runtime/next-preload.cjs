/**
 * Preloaded (`node --require`) into the Next.js server process that `npm start` spawns
 * (lib/runtime/server.ts). Issue 13:
 * - server timeouts Next.js does not expose: request headers within 10 s (headersTimeout), the
 *   whole request including its body within 30 s (requestTimeout), idle keep-alive connections
 *   closed after 5 s, checked every second; slow clients cannot hold a connection for minutes;
 * - the client's socket address as the `x-checkin-client-ip` request header (overwriting any value
 *   a client sent), which the rate limits key on (lib/api/rate-limit.ts `clientIp`);
 * - methods Next.js cannot represent at all (TRACE, TRACK and CONNECT make its Request constructor
 *   throw before proxy.ts runs, a 500 with a stack trace) and any other method route handlers
 *   cannot serve answer a JSON 405 with `Allow` (v1 paths: the v1 404 `{"error": "Not found"}`);
 * - a path with malformed percent-encoding answers a JSON 400 in the version's error shape (issue
 *   14 moved this here from proxy.ts: API requests skip the proxy, whose run cost about 45% of an
 *   empty route handler's throughput);
 * - on API paths (`/v1`, `/v2`) those two refusals are not sent from here but handed to the app
 *   (issue 40), so that they are rate-limited and carry the `RateLimit` headers like every API
 *   answer: the request goes on as `/v1/_refused` or `/v2/_refused` (an unknown method as GET) with
 *   the `x-checkin-refused` header naming the refusal (`malformed-path`, `method=TRACE`), which the
 *   catch-all routes answer (lib/api/route.ts `unknownPath`). The header is removed from every
 *   request that arrives with it. An OPTIONS request with a malformed path is still answered here
 *   (preflights carry no RateLimit headers, see README);
 * - outside the API (`/v1`, `/v2` cap their own bodies, in their own error shape) every request
 *   whose `Content-Length` is above API_BODY_LIMIT_BYTES (default 1 MB) answers 413 at once
 *   (issue 40): Next.js would otherwise read it (the proxy's body clone holds up to 10 MB) before
 *   any route or server action sees it. The rest of the upload is read and dropped (so that the
 *   client, still sending, reads the answer instead of a reset), at most DRAIN_LIMIT bytes, then
 *   the connection is closed. A body without a length (chunked) answers 411 the same way, except
 *   under /api/auth/, whose route counts it (Next.js reads such a body whole for proxy.ts, keeping
 *   up to 10 MB, before a page or server action could refuse it; browsers always send a length);
 * - outside the API, an empty or malformed `Host` / `X-Forwarded-Host` answers 400: next-auth
 *   builds its origin from it and threw (a 500 on every page); same rule as lib/http/host.ts;
 * - exits when its parent (the service process) is gone, e.g. after a SIGKILL, so an orphaned
 *   server never keeps the port and the next `npm start` comes up;
 * - structured logs (issue 44): the process's logger (lib/runtime/logger.cjs, named `web`) takes
 *   console lines and Node warnings, and every request gets a request id (its `X-Request-Id` when
 *   well-formed: 1 to 128 of `A-Z a-z 0-9 . _ : -`; else a new UUID), passed to the app as the
 *   `x-request-id` request header, echoed as the `X-Request-Id` response header, and one log line
 *   when the response is finished (or the connection closed first, `aborted`): `requestId`,
 *   `method`, `route` (the template the app noted, lib/logger.ts `noteRequest`, else the one of the
 *   build's routes manifest; `path` without the query when none matches), `status`, `durationMs`,
 *   `actorId` / `apiKeyId` when the app noted them. Never headers, query strings or bodies. Level
 *   `info` (`error` for a 5xx; `debug` for the build's static files under /_next/static/ and for
 *   answered probes of /healthz, /readyz and /metrics, which orchestrators call every few seconds).
 * Settings: HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS (ms),
 * LOG_LEVEL, LOG_FORMAT.
 */
const http = require("node:http");
const { randomUUID } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const logging = require("./logger.cjs");

const log = logging.processLogger({
  name: "web",
  // biome-ignore lint/style/noProcessEnv: see `number` below
  level: (process.env.LOG_LEVEL ?? "").trim().toLowerCase() || "info",
  // biome-ignore lint/style/noProcessEnv: see `number` below
  format: (process.env.LOG_FORMAT ?? "").trim().toLowerCase() === "pretty" ? "pretty" : "json",
});
logging.captureConsole(log);
logging.captureWarnings(log);

const number = (name, fallback) => {
  // biome-ignore lint/style/noProcessEnv: a plain-JS preload that runs before the app; lib/env.ts (TypeScript) cannot be loaded here
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const TIMEOUTS = {
  headersTimeout: number("HTTP_HEADERS_TIMEOUT_MS", 10_000),
  requestTimeout: number("HTTP_REQUEST_TIMEOUT_MS", 30_000),
  keepAliveTimeout: number("HTTP_KEEP_ALIVE_TIMEOUT_MS", 5_000),
  connectionsCheckingInterval: 1_000,
};
const CLIENT_IP_HEADER = "x-checkin-client-ip";
const BODY_LIMIT = number("API_BODY_LIMIT_BYTES", 1_048_576);
const DRAIN_LIMIT = 8 * 1_048_576;
/** How long a connection stays open (reading nothing) after DRAIN_LIMIT, before it is closed. */
const LINGER_MS = 2_000;
/** Paths outside the API whose routes count a chunked body themselves (lib/auth/auth-route.ts). */
const COUNTS_OWN_BODY = /^\/api\/auth\//;

const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/** True for legacy API paths (`/v1`, `/v1/...`, `/v1?...`): they answer in the v1 error shape. */
const isV1 = (url) => /^\/v1(\/|\?|$)/.test(url ?? "");

/** The API version of an API path (`/v1...`, `/v2...`), else null. */
const apiVersion = (url) => /^\/(v[12])(\/|\?|#|$)/.exec(url ?? "")?.[1] ?? null;

/** Request header naming a refusal the app answers (lib/api/route.ts `REFUSED_HEADER`). */
const REFUSED_HEADER = "x-checkin-refused";

/** Hands a refused API request to the app's catch-all (see the module comment). */
function handToApp(req, version, refusal) {
  req.headers[REFUSED_HEADER] = refusal;
  req.url = `/${version}/_refused`;
}

/** True for API paths (`/v1`, `/v2` and below), which check their own bodies and hosts. */
const isApi = (url) => apiVersion(url) !== null;

/** Sends a JSON API error answer (the API's headers) and drains the request. */
function sendJson(req, res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Access-Control-Allow-Origin": "*",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...headers,
  });
  res.end(text);
  req.resume();
}

/**
 * Answers a request whose method no route can serve; true when it did. On an API path it hands the
 * request to the app as a GET instead (false: the app answers).
 */
function refuseUnservedMethod(req, res) {
  if (SERVED_METHODS.has(req.method)) return false;
  const version = apiVersion(req.url);
  if (version) {
    handToApp(req, version, `method=${String(req.method).slice(0, 20)}`);
    req.method = "GET";
    return false;
  }
  const message = `Method ${String(req.method).slice(0, 20)} is not supported (allowed: ${ALLOW})`;
  if (isV1(req.url)) sendJson(req, res, 404, { error: "Not found" });
  else sendJson(req, res, 405, { error: { code: "METHOD_NOT_ALLOWED", message } }, { Allow: ALLOW });
  return true;
}

/** True when every %XX of the path part of `url` decodes to valid UTF-8. */
function decodesCleanly(url) {
  try {
    decodeURIComponent(url.split(/[?#]/, 1)[0]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers a request whose path has malformed percent-encoding (`/v2/standups/%FF`) with 400 in
 * the version's error shape (v1 `{"error": "..."}`, otherwise the v2 shape) instead of Next's
 * decoder error; true when it did. Done here, before Next, so that API requests need no proxy run.
 * An API request other than OPTIONS is handed to the app instead (false: the app answers).
 */
function refuseMalformedPath(req, res) {
  const url = req.url ?? "/";
  if (decodesCleanly(url)) return false;
  const version = apiVersion(url);
  if (version && req.method !== "OPTIONS") {
    handToApp(req, version, "malformed-path");
    return false;
  }
  const message = "Malformed percent-encoding in the path";
  sendJson(req, res, 400, isV1(url) ? { error: message } : { error: { code: "INVALID_PARAMETER", message } });
  return true;
}

/** Same rule as lib/http/host.ts `isValidHost`: one `host[:port]` a URL can carry. */
function isValidHost(value) {
  if (!value || value.length > 255 || /[\s/\\?#@,]/.test(value)) return false;
  try {
    return new URL(`http://${value}`).host !== "";
  } catch {
    return false;
  }
}

/**
 * Answers 413 / 411 to a request whose body is refused unread. The whole answer is written at once
 * but the response is ended (and the connection closed) only when the upload ends, or after
 * DRAIN_LIMIT more bytes: then reading stops and the connection is closed LINGER_MS later. Closing
 * at once would reset a client that is still sending, which then often never reads the answer.
 */
function refuseBody(req, res, status, code, message) {
  const text = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    Connection: "close",
  });
  res.write(text);
  const finish = () => {
    if (!res.writableEnded) res.end();
  };
  let drained = 0;
  req.on("data", (chunk) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT && !req.isPaused()) {
      // Stop taking bytes but keep the connection a moment: a client still sending reads the
      // answer (its writes stall) instead of a reset that can discard the answer it has not read.
      // Not ended yet: ending a `Connection: close` response closes the socket, and closing a
      // socket with unread bytes makes the kernel send a reset at once.
      req.pause();
      setTimeout(() => {
        finish();
        req.socket.destroy();
      }, LINGER_MS).unref();
    }
  });
  req.on("end", finish);
  req.on("close", finish);
  req.on("error", () => {});
}

/**
 * Outside the API: answers 400 for an invalid Host / X-Forwarded-Host and 413 (closing the
 * connection) for a declared body above BODY_LIMIT; true when it did.
 */
function refuseOutsideApi(req, res) {
  if (isApi(req.url)) return false;
  const forwarded = req.headers["x-forwarded-host"];
  if (!isValidHost(req.headers.host) || (forwarded !== undefined && !isValidHost(forwarded))) {
    sendJson(req, res, 400, { error: { code: "INVALID_PARAMETER", message: "Missing or malformed Host header" } });
    return true;
  }
  const declared = req.headers["content-length"];
  if (Number(declared) > BODY_LIMIT) {
    refuseBody(req, res, 413, "PAYLOAD_TOO_LARGE", `Request body is larger than ${BODY_LIMIT} bytes`);
    return true;
  }
  if (declared === undefined && req.headers["transfer-encoding"] !== undefined && !COUNTS_OWN_BODY.test(req.url ?? "")) {
    refuseBody(req, res, 411, "LENGTH_REQUIRED", "A request body without Content-Length is only taken by the API and /api/auth");
    return true;
  }
  return false;
}

const REQUEST_ID_HEADER = "x-request-id";
/** Request header keying the app's notes about a request (lib/logger.ts `noteRequest`); unique per request in this process. */
const NOTE_KEY_HEADER = "x-checkin-log-key";
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const STATIC_FILES = /^\/_next\/static\//;
/** Health and metrics probes: logged at debug unless they fail (4xx/5xx). */
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);
let requestCounter = 0;

/** The app's notes about requests in flight, by NOTE_KEY_HEADER (see lib/logger.ts). */
const notes = new Map();
globalThis[Symbol.for("checkin.requestNotes")] = {
  note(key, fields) {
    const n = notes.get(key);
    if (n) Object.assign(n, fields);
  },
};

let manifestRoutes = null;
/** The build's page and route templates (`.next/routes-manifest.json`) as [regex, `/things/{id}`]; [] without a build. */
function routeTemplates() {
  if (manifestRoutes) return manifestRoutes;
  manifestRoutes = [];
  // biome-ignore lint/style/noProcessEnv: see `number` above; under `next dev` the manifest may be an older build's
  if (process.env.NODE_ENV === "development") return manifestRoutes;
  try {
    const m = JSON.parse(fs.readFileSync(path.join(process.cwd(), ".next", "routes-manifest.json"), "utf8"));
    for (const r of [...(m.staticRoutes ?? []), ...(m.dynamicRoutes ?? [])]) {
      if (typeof r.page === "string" && typeof r.regex === "string") {
        manifestRoutes.push([new RegExp(r.regex), r.page.replace(/\[(\.{3})?([^\]]+)\]/g, "{$1$2}")]);
      }
    }
  } catch {
    /* no production build (tests, next dev): requests are logged by path */
  }
  return manifestRoutes;
}

/** The route template of `pathname` from the build's manifest, or null. */
function templateOf(pathname) {
  for (const [re, page] of routeTemplates()) if (re.test(pathname)) return page;
  return null;
}

/**
 * Gives the request its id (see the module comment) and logs it once its response is finished or
 * its connection closed. Runs before anything answers, so refusals are logged too.
 */
function traceRequest(req, res) {
  const given = req.headers[REQUEST_ID_HEADER];
  const requestId = typeof given === "string" && WELL_FORMED_ID.test(given) ? given : randomUUID();
  const key = String(++requestCounter);
  req.headers[REQUEST_ID_HEADER] = requestId;
  req.headers[NOTE_KEY_HEADER] = key;
  res.setHeader("X-Request-Id", requestId);
  const note = {};
  notes.set(key, note);
  const started = process.hrtime.bigint();
  const method = req.method;
  const pathname = (req.url ?? "/").split(/[?#]/, 1)[0];
  let logged = false;
  const done = () => {
    if (logged) return;
    logged = true;
    notes.delete(key);
    const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
    const isStatic = STATIC_FILES.test(pathname);
    // The build's own files match no template: no scan of the manifest's patterns for them.
    const route = note.route ?? (isStatic ? null : templateOf(pathname));
    const status = res.statusCode;
    const entry = { requestId, method, ...(route ? { route } : { path: pathname.slice(0, 200) }), status, durationMs };
    if (note.actorId !== undefined) entry.actorId = note.actorId;
    if (note.apiKeyId !== undefined) entry.apiKeyId = note.apiKeyId;
    if (!res.writableFinished) entry.aborted = true;
    const quiet = isStatic || (status < 400 && PROBES.has(pathname));
    const level = status >= 500 ? "error" : quiet ? "debug" : "info";
    log[level](entry, `${method} ${route ?? entry.path} ${status} ${durationMs} ms`);
  };
  res.once("finish", done);
  res.once("close", done);
}

const originalCreateServer = http.createServer;
http.createServer = function createServer(...args) {
  const options = typeof args[0] === "object" && args[0] !== null ? { ...args.shift() } : {};
  const listener = typeof args[0] === "function" ? args[0] : undefined;
  const wrapped = listener
    ? function onRequest(req, res) {
        traceRequest(req, res);
        req.headers[CLIENT_IP_HEADER] = (req.socket?.remoteAddress ?? "unknown").replace(/^::ffff:/, "");
        if (req.headers[REFUSED_HEADER] !== undefined) delete req.headers[REFUSED_HEADER];
        if (refuseUnservedMethod(req, res) || refuseMalformedPath(req, res) || refuseOutsideApi(req, res)) return;
        return listener.call(this, req, res);
      }
    : undefined;
  const server = originalCreateServer.call(http, { ...TIMEOUTS, ...options }, wrapped);
  server.headersTimeout = TIMEOUTS.headersTimeout;
  server.requestTimeout = TIMEOUTS.requestTimeout;
  server.keepAliveTimeout = TIMEOUTS.keepAliveTimeout;
  return server;
};

const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 1_000).unref();
