/**
 * Structured logs (issue 44; README "Health and metrics"): the process's pino logger
 * (lib/runtime/logger.cjs; JSON lines, or human-readable with `LOG_FORMAT=pretty`), a line logger
 * for the `log(line)` callbacks of the runtime and the jobs, and the notes by which the API wrapper
 * and the dashboard session tell the web server's request log (lib/runtime/next-preload.cjs) the
 * route template and the actor of a request.
 */
import type { Logger } from "pino";
import { logFormat, logLevel } from "@/lib/env";
import { captureConsole, captureWarnings, existingLogger, processLogger } from "@/lib/runtime/logger.cjs";

export type { Logger } from "pino";

/**
 * This process's logger. In the web server it is the one the preload created (name `web`);
 * elsewhere it is created on first use, named `name` (default `checkin`), with LOG_LEVEL and LOG_FORMAT.
 */
export function logger(name = "checkin"): Logger {
  return existingLogger() ?? processLogger({ name, level: logLevel(), format: logFormat() });
}

/**
 * Makes this process's logger the one named `name` and sends its console lines and Node warnings
 * (deprecations...) through it. For the entry points of the service's processes (scripts/start.ts,
 * scripts/worker-process.ts); returns the logger.
 */
export function installProcessLogger(name: string): Logger {
  const log = logger(name);
  captureConsole(log);
  captureWarnings(log);
  return log;
}

/** A `(line) => void` logger (the runtime's and the jobs' `log` callbacks) writing `info` entries through `log`. */
export function lineLogger(log: Logger = logger()): (line: string) => void {
  return (line: string) => {
    if (line.trim() === "") return;
    if (/\b(error|failed|FATAL|PANIC|crashed)\b/i.test(line)) log.warn(line);
    else log.info(line);
  };
}

/** What the app knows about a request that the server preload does not: the route template and the actor. */
export type RequestNote = { route?: string; actorId?: number; apiKeyId?: number };

type RequestNotes = { note(requestId: string, fields: RequestNote): void };

/** Request header carrying the request id the server preload assigned (also the response header). */
export const REQUEST_ID_HEADER = "x-request-id";

/** Request header by which the server preload keys its notes (one per request; the request id may repeat). */
const NOTE_KEY_HEADER = "x-checkin-log-key";

/**
 * Adds `fields` to the log line of the request whose headers are `headers` (the server preload set
 * its note key there). Does nothing outside the web server (no preload: tests calling handlers).
 */
export function noteRequest(headers: { get(name: string): string | null } | null | undefined, fields: RequestNote): void {
  const key = headers?.get(NOTE_KEY_HEADER);
  if (!key) return;
  const notes = (globalThis as { [k: symbol]: RequestNotes | undefined })[Symbol.for("checkin.requestNotes")];
  notes?.note(key, fields);
}
