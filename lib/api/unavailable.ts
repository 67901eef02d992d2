/**
 * Database unavailability (issue 13): recognising a lost or refused PostgreSQL connection in
 * whatever shape it reaches us (pg errors, Prisma's wrapped driver-adapter errors), retrying a
 * safe unit of work once, and the `Retry-After` the resulting 503 carries.
 */

/** Seconds a client is told to wait (`Retry-After`) after a 503. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** SQLSTATEs of a lost, refused or shutting-down server (class 08, 57P01–57P03, 53300). */
const SQLSTATES = new Set(["08000", "08001", "08003", "08004", "08006", "08007", "57P01", "57P02", "57P03", "53300"]);
/** Node socket errors. */
const ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/** Prisma's connection-level error codes. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const MESSAGES =
  /connection terminated|terminating connection|connection (?:was )?(?:closed|reset|refused|ended)|server closed the connection|can't reach database server|client has encountered a connection error|timeout exceeded when trying to connect|the database system is (?:starting up|shutting down|in recovery mode)|sorry, too many clients|connection is not open|cannot use a pool after calling end|socket hang up|connect ECONNREFUSED|DATABASE_URL is not set/i;

/**
 * True when `err` (or anything in its `cause` chain / Prisma `meta`) says the database could not
 * be reached or dropped the connection, as opposed to a query that failed on its own merits.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [err];
  while (stack.length) {
    const e = stack.pop();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const o = e as Record<string, unknown>;
    for (const field of ["code", "originalCode", "errno", "kind"]) {
      const v = o[field];
      if (typeof v === "string" && (SQLSTATES.has(v) || ERRNOS.has(v) || PRISMA_CODES.has(v))) return true;
    }
    for (const field of ["message", "originalMessage"]) {
      const v = o[field];
      if (typeof v === "string" && MESSAGES.test(v)) return true;
    }
    stack.push(o.cause, o.meta, o.driverAdapterError);
    if (Array.isArray(o.errors)) stack.push(...o.errors);
  }
  return false;
}

/**
 * Runs `work`; when it fails because the database connection was lost, runs it once more after a
 * short pause (the pool then opens a fresh connection). Only for work that is safe to repeat:
 * reads, and writes whose transaction records their own completion (Idempotency-Key).
 */
export function retryOnceIfUnavailable<T>(work: () => Promise<T>, pauseMs = 200): Promise<T> {
  // `.catch` rather than an async function: one promise on the API's request path, not two.
  let first: Promise<T>;
  try {
    first = work();
  } catch (err) {
    first = Promise.reject(err);
  }
  return first.catch(async (err: unknown) => {
    if (!isDatabaseUnavailable(err)) throw err;
    await new Promise((r) => setTimeout(r, pauseMs));
    return work();
  });
}
