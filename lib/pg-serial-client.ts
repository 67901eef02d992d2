/**
 * A `pg.Client` that runs promise-style queries one after another instead of handing a second
 * query to the client while one is still executing.
 *
 * Why: inside an interactive transaction, Prisma's `@prisma/adapter-pg` (7.10) sends the queries of
 * a nested read (e.g. an `include` of several relations) concurrently on the transaction's single
 * connection. pg 8.19+ then prints "DeprecationWarning: Calling client.query() when the client is
 * already executing a query" (and pg 9 will reject it). pg used to queue such queries internally;
 * this class keeps that order explicitly, so the behaviour is the same and nothing is printed.
 * Upstream: prisma/orm#29646, #29979 (adapter-pg serializing queries of one connection). Remove
 * this class once the adapter does it.
 *
 * Callback-style and `Submittable` queries (used by no caller of ours) are passed through as is.
 * Used by lib/db.ts as the pool's `Client` class.
 */
import pg from "pg";

type QueryFn = (...args: unknown[]) => unknown;

export class SerialClient extends pg.Client {
  /** Settles when the last promise-style query handed to this client has settled. */
  private tail: Promise<unknown> = Promise.resolve();

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded query() signature is re-exposed unchanged.
  override query(...args: unknown[]): any {
    const [first] = args;
    const last = args[args.length - 1];
    const parentQuery = super.query as unknown as QueryFn;
    const isSubmittable = typeof first === "object" && first !== null && typeof (first as { submit?: unknown }).submit === "function";
    if (typeof last === "function" || isSubmittable) return parentQuery.apply(this, args);
    const run = this.tail.then(() => parentQuery.apply(this, args));
    this.tail = run.catch(() => undefined);
    return run;
  }
}
