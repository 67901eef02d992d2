/**
 * Pipelined connections for the single statements `queryRows` sends outside a transaction (issue
 * 14, read path): a few pg clients in pg's documented pipeline mode (`pipeline: true`,
 * https://node-postgres.com/features/pipelining), shared by concurrent requests, instead of one
 * pooled connection checked out per statement.
 *
 * Why: on this project's reference machine, sending a statement costs its socket write (one
 * `writev` per statement) about 110 µs of Node CPU, a third of a light API read's in-process cost
 * (CPU profile, 16 concurrent callers). A pipelined client sends a statement without waiting for
 * the previous one's answer, and its socket is corked from the first statement of an event-loop
 * turn until the turn's I/O callbacks have run (`setImmediate`), so the statements of requests
 * that arrive together leave in one write and their answers come back in one read. Measured
 * in process on `GET /v2/standups/{id}` (the route handler called by 16 concurrent callers, CPU
 * per call; issue 14 closing note of stop 23): 289–444 µs without the pipeline, 172–224 µs with it.
 *
 * Each statement keeps its own Sync, so PostgreSQL runs it as its own implicit transaction: an
 * error ends that statement only, the next one runs as usual. The price is head-of-line blocking:
 * a statement waits for those sent before it on the same connection. So a statement goes to the
 * connection with the fewest statements in flight, a new connection is opened (up to `size`)
 * when every open one is busy, and none is used when each has `maxInFlight` in flight: the caller
 * then uses its pool (`query` returns null). A connection that fails (server restart, terminated
 * backend) fails the statements in flight on it, as a pooled one would, and is replaced by the
 * next call.
 */
import pg from "pg";

type Link = {
  client: pg.Client;
  /** Statements sent and not yet answered. */
  inFlight: number;
  /** The socket is corked until the end of this event-loop turn. */
  corked: boolean;
  /** The connection failed or was closed: no new statement goes to it. */
  closed: boolean;
  /** Settles when `connect()` has (resolved or rejected). */
  connecting: Promise<unknown>;
};

/** The socket of a pg client (pg's internal `Connection.stream`, a net.Socket; pinned by tests/db-adapter-pin.test.ts). */
function socketOf(client: pg.Client): { cork(): void; uncork(): void; connecting?: boolean; writable?: boolean } {
  return (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
}

export class PipelinedConnections {
  private readonly links: Link[] = [];
  private ended = false;

  /**
   * @param config pg's client options (connection string, …); `pipeline: true` is added.
   * @param size at most this many connections are opened (≥ 1).
   * @param maxInFlight a connection with this many statements in flight takes no more.
   * @param Client the client class: pg.Client, or one that observes statements (tests, benchmarks).
   */
  constructor(
    private readonly config: pg.ClientConfig,
    private readonly size: number,
    private readonly maxInFlight: number,
    private readonly Client: typeof pg.Client = pg.Client,
  ) {}

  /**
   * Sends `query` on a pipelined connection: its result, or pg's error (a DatabaseError for the
   * statement, a connection error when the connection fails meanwhile). Returns null, sending
   * nothing, when every connection is at `maxInFlight` or this set has been ended.
   * @throws what pg throws synchronously for an invalid query config (e.g. values it cannot serialize).
   */
  query(query: pg.QueryConfig): Promise<pg.QueryResult> | null {
    const link = this.pick();
    if (!link) return null;
    link.inFlight++;
    if (!link.corked) {
      const socket = socketOf(link.client);
      // Only a connected socket is corked: while connecting, pg queues statements itself.
      if (socket.writable && !socket.connecting) {
        link.corked = true;
        socket.cork();
        setImmediate(() => {
          link.corked = false;
          socket.uncork();
        });
      }
    }
    let result: Promise<pg.QueryResult>;
    try {
      result = link.client.query(query);
    } catch (err) {
      link.inFlight--;
      throw err;
    }
    result.then(
      () => {
        link.inFlight--;
      },
      (err: unknown) => {
        link.inFlight--;
        // PostgreSQL ends a terminated backend's statement with a FATAL error before it closes the
        // socket: no statement may go to that connection in between.
        if (isFatal(err)) this.retire(link);
      },
    );
    return result;
  }

  /** Closes every connection (after the statements in flight are answered). */
  async end(): Promise<void> {
    this.ended = true;
    const links = this.links.splice(0);
    await Promise.all(
      links.map((link) => {
        link.closed = true;
        return link.connecting.then(() => link.client.end()).catch(() => undefined);
      }),
    );
  }

  /** The open connection with the fewest statements in flight, a new one when all are busy, or null (see `query`). */
  private pick(): Link | null {
    if (this.ended) return null;
    let best: Link | undefined;
    for (const link of this.links) if (!best || link.inFlight < best.inFlight) best = link;
    if (best && best.inFlight === 0) return best;
    if (this.links.length < this.size) return this.open();
    return best && best.inFlight < this.maxInFlight ? best : null;
  }

  private open(): Link {
    const client = new this.Client({ ...this.config, pipeline: true } as pg.ClientConfig);
    const link: Link = { client, inFlight: 0, corked: false, closed: false, connecting: Promise.resolve() };
    const drop = () => this.drop(link);
    // A connection error also rejects the statements in flight; without this listener it would be
    // an unhandled 'error' event (the process would exit).
    client.on("error", drop);
    client.on("end", drop);
    link.connecting = client.connect().catch(drop);
    this.links.push(link);
    return link;
  }

  /** No new statement goes to `link`. */
  private drop(link: Link): void {
    if (link.closed) return;
    link.closed = true;
    const at = this.links.indexOf(link);
    if (at >= 0) this.links.splice(at, 1);
  }

  /** Drops `link` and closes its connection (statements in flight on it fail as the server ends them). */
  private retire(link: Link): void {
    if (link.closed) return;
    this.drop(link);
    link.client.end().catch(() => undefined);
  }
}

/**
 * A FATAL error from the server (its backend is ending: terminated, shutting down, out of memory):
 * pg reports it on the statement in flight, and the connection closes right after.
 */
function isFatal(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { severity?: unknown }).severity === "FATAL";
}
