/**
 * The service's one logger (issue 44; README "Health and metrics"): pino, one JSON object per line
 * on stdout (`LOG_FORMAT=json`, the default), or a short human-readable line per entry
 * (`LOG_FORMAT=pretty`, the default of `npm run dev`). Plain CommonJS so that the web server's
 * preload (lib/runtime/next-preload.cjs), which runs before Next.js, and the TypeScript processes
 * (lib/logger.ts) share it. One logger per process, kept on `globalThis` so that every bundle of the
 * Next.js server (which may load this file again) writes through the same one.
 *
 * Every entry: `level` ("debug" … "fatal"), `time` (ISO 8601 UTC), `pid`, `name` (the process:
 * `launcher`, `service`, `web`, `worker`, or a script's name) and `msg`; request lines add
 * `requestId`, `method`, `route`, `status`, `durationMs`, `actorId` (see next-preload.cjs).
 * Fields named like secrets (`password`, `token`, `authorization`, `cookie`, `apiKey`, `secret`,
 * `answers`, `text`) are censored at the top level of an entry and in its `headers` and `body`.
 */
const pino = require("pino");
const util = require("node:util");

const KEY = Symbol.for("checkin.logger");
const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal", "silent"]);

/**
 * Field names never written as they are (pino `redact` paths): at the top level of an entry, and
 * in a `headers` or `body` object. No wildcards: a `*.field` path doubled the cost of each line.
 */
const SECRET_FIELDS = ["password", "token", "authorization", "cookie", "apiKey", "api_key", "secret", "answers", "text"];
const REDACT = SECRET_FIELDS.flatMap((f) => [f, `headers.${f}`, `body.${f}`]);

const COLORS = { trace: 90, debug: 90, info: 36, warn: 33, error: 31, fatal: 35 };
// Request lines say method, route, status and duration in their `msg` already.
const OMIT = new Set(["level", "time", "pid", "hostname", "name", "msg", "method", "route", "status", "durationMs"]);

/**
 * Formats one JSON log line for people: `12:00:01.234 INFO  web  GET /v2/standups 200 3.1 ms`
 * followed by the other fields as `key=value` (errors: their stack on the next lines).
 */
function prettyLine(line, color) {
  let e;
  try {
    e = JSON.parse(line);
  } catch {
    return line;
  }
  const time = typeof e.time === "string" ? e.time.slice(11, 23) : "";
  const level = String(e.level ?? "")
    .toUpperCase()
    .padEnd(5);
  const paint = (code, s) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const extra = [];
  let stack = "";
  for (const [k, v] of Object.entries(e)) {
    if (OMIT.has(k)) continue;
    if (k === "err" && v && typeof v === "object" && v.stack) stack = `\n${v.stack}`;
    else extra.push(`${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  }
  const head = `${paint(90, time)} ${paint(COLORS[e.level] ?? 0, level)} ${paint(90, e.name ?? "")} ${e.msg ?? ""}`;
  return `${head}${extra.length ? ` ${paint(90, extra.join(" "))}` : ""}${stack}\n`;
}

/** A destination that writes each JSON line as `prettyLine` to `stream` (default stdout). */
function prettyDestination(stream = process.stdout) {
  const color = Boolean(stream.isTTY);
  return { write: (line) => stream.write(prettyLine(line, color)) };
}

/**
 * Creates a pino logger named `name`.
 * @param {{ name: string, level?: string, format?: string, destination?: { write(line: string): unknown } }} opts
 *   level: pino level (default "info"); format: "json" (default) or "pretty"; destination: where lines go
 *   (default stdout; tests pass a collector).
 */
function createLogger(opts) {
  const level = LEVELS.has(opts.level) ? opts.level : "info";
  const options = {
    name: opts.name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT, censor: "[redacted]" },
    serializers: { err: pino.stdSerializers.err },
  };
  const target = opts.destination ?? process.stdout;
  return pino(options, opts.format === "pretty" ? prettyDestination(target) : target);
}

/**
 * This process's logger, created on first use with `opts` (later calls return the same one, their
 * options ignored). See the module comment.
 */
function processLogger(opts) {
  const g = globalThis;
  if (!g[KEY]) g[KEY] = createLogger(opts);
  return g[KEY];
}

/** The process's logger if one was created (by the preload or lib/logger.ts), else null. */
function existingLogger() {
  return globalThis[KEY] ?? null;
}

/**
 * Sends `console.log/info/warn/error/debug` of this process through `logger` (one entry per call,
 * the arguments formatted as console does; an Error argument is logged as `err` with its stack), so
 * that libraries' free-text lines (Next.js, next-auth) come out in the same format.
 */
function captureConsole(logger) {
  const route =
    (level) =>
    (...args) => {
      const err = args.find((a) => a instanceof Error);
      const msg = util.format(...args.filter((a) => a !== err));
      if (err) logger[level]({ err }, msg || err.message);
      else logger[level](msg);
    };
  console.log = route("info");
  console.info = route("info");
  console.debug = route("debug");
  console.warn = route("warn");
  console.error = route("error");
}

/**
 * Sends the process's warnings (DeprecationWarning, ExperimentalWarning, MaxListenersExceeded...)
 * through `logger` as one `warn` entry each (name, code, message; the same code once per process)
 * instead of Node's free-text stderr lines: Node's default printer is removed.
 */
function captureWarnings(logger) {
  const seen = new Set();
  process.removeAllListeners("warning");
  process.on("warning", (w) => {
    const key = `${w.name}:${w.code ?? w.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    logger.warn({ warning: w.name, code: w.code }, w.message);
  });
}

module.exports = { createLogger, processLogger, existingLogger, captureConsole, captureWarnings, prettyLine };
