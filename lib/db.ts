/**
 * The one Prisma client of the process, built with the `pg` driver adapter (Rust-free client).
 * Reads `DATABASE_URL` on first use (npm start sets it after starting the embedded PostgreSQL).
 * Statements are named (prepared once per connection) unless `preparedStatements()` says the URL
 * goes through a transaction-mode pooler.
 * Kept on globalThis so Next.js dev reloads and test files share one pool.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { closeApiKeyCache } from "@/lib/auth/api-key-cache";
import { PipelinedConnections } from "@/lib/db-pipeline";
import { databasePipeline, databasePoolSize, databaseUrl, preparedStatements } from "@/lib/env";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { SerialClient } from "@/lib/pg-serial-client";
import { processState } from "@/lib/runtime/process-state";

export type Db = PrismaClient;
/** A client or an interactive-transaction client: domain functions accept either. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const globalForDb = globalThis as unknown as { __checkinPrisma?: PrismaClient };
/**
 * The pg pool under each client made by `newPrismaClient` (the adapter runs on it too), and whether
 * its statements are named. Process-wide (lib/runtime/process-state.ts): a module-level map let
 * `queryRows` in every route chunk but the one that created the client miss its pool and fall back
 * to Prisma's slower raw path.
 */
const poolOfClient = processState("__checkinPoolOfClient", () => new WeakMap<object, ClientPlumbing>());
/**
 * What `queryRows` and `transaction` use of a client made by `newPrismaClient`: its pg pool, whether
 * statements are named, its pipelined connections, and the two direct paths (see `ClientMachinery`).
 */
type ClientPlumbing = {
  pool: pg.Pool;
  named: boolean;
  pipeline: PipelinedConnections | null;
  directReads: boolean;
  transactionLink: boolean;
};
/**
 * The pg connection of an interactive transaction opened by `transaction`, while Prisma holds it
 * for that transaction (`open` turns false when Prisma releases it: commit, rollback or timeout).
 */
type TransactionConnection = { connection: pg.PoolClient; open: boolean };
/**
 * The connection of each transaction opened by `transaction`/`inTransaction`, by its transaction
 * client: `queryRows(q, tx)` sends straight to it instead of through `tx.$queryRaw` (Prisma's raw
 * path inside a transaction costs about 200 µs of Node CPU per call, issue 14). Process-wide, like
 * `poolOfClient`.
 */
const connectionOfTx = processState("__checkinConnectionOfTx", () => new WeakMap<object, TransactionConnection>());
/**
 * Set by `transaction` around `db.$transaction`: the first connection the pool hands out by
 * promise in that async context is the one Prisma's pg adapter checks out for the transaction
 * (`PrismaPgAdapter.startTransaction` → `pool.connect()`; plain queries use `pool.query`, which
 * connects by callback). Process-wide, like `poolOfClient`.
 */
const pendingTransaction = processState("__checkinPendingTransaction", () => new AsyncLocalStorage<{ link?: TransactionConnection }>());

/**
 * A pg pool that tells `transaction` which connection Prisma's adapter took for it (see
 * `pendingTransaction`) and when it gave it back (the checkout's `release`, which pg-pool sets
 * anew on every checkout). Callback-style `connect` (what `pool.query` uses) is left alone.
 * This relies on `@prisma/adapter-pg` internals (no public API gives a transaction's connection):
 * tests/db-adapter-pin.test.ts pins the adapter version and that shape; docs/scaling.md
 * "Performance machinery" gives what it gains.
 */
class TransactionAwarePool extends pg.Pool {
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded connect() signature is re-exposed unchanged.
  override connect(...args: unknown[]): any {
    const connect = super.connect as unknown as (...a: unknown[]) => unknown;
    if (args.length > 0) return connect.apply(this, args);
    const pending = pendingTransaction.getStore();
    const connecting = connect.apply(this, []) as Promise<pg.PoolClient>;
    if (!pending || pending.link) return connecting;
    return connecting.then((connection) => {
      if (pending.link) return connection;
      const link: TransactionConnection = { connection, open: true };
      const release = connection.release;
      connection.release = (err?: Error | boolean) => {
        link.open = false;
        return release.call(connection, err);
      };
      pending.link = link;
      return connection;
    });
  }
}

/** Statement names by SQL text (see `statementName`), process-wide so two copies never name two texts alike. */
const statementNames = processState("__checkinStatementNames", () => new Map<string, string>());

/** At most this many distinct SQL texts get a statement name; later ones run unnamed (parsed and planned each time). */
const MAX_NAMED_STATEMENTS = 500;

/**
 * The statement name of one SQL text (`s1`, `s2`, … in order of first use in this process), or ""
 * (pg's unnamed statement) once `MAX_NAMED_STATEMENTS` texts are named. pg prepares a named statement once per
 * connection and then only binds and executes it, and PostgreSQL may reuse its plan: the list
 * statements cost about half the database time (measured: 1.97 → 1.06 ms per /v2/reports page).
 * The map is process-wide, so one name never stands for two texts.
 */
export function statementName(query: { sql: string }): string {
  let name = statementNames.get(query.sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `s${statementNames.size + 1}`;
    statementNames.set(query.sql, name);
  }
  return name ?? "";
}

/**
 * A `queryRows` statement shape: its template fragments, its SQL text as first built, its name,
 * and whether it may go to a pipelined connection (`pipelinable`).
 */
type KnownStatement = { strings: readonly string[]; text: string; name: string; pipelinable: boolean };

/** `queryRows` statements by fragment count; process-wide like `statementNames`. */
const knownStatements = processState("__checkinKnownStatements", () => ({ byLength: new Map<number, KnownStatement[]>(), size: 0 }));

/** At most this many statement shapes are remembered by `namedStatement`; later ones are named by text each time. */
const MAX_KNOWN_STATEMENTS = 1000;

/**
 * The statement name and SQL text of `query` (see `statementName`), found by comparing its
 * template fragments with those already seen instead of by its whole text: building, flattening
 * and hashing a statement's text of several kB took 5–14 µs on every API read (issue 14). The
 * text returned is the one first built for that shape, so pg's check that a name keeps its text
 * compares a string with itself.
 */
export function namedStatement(query: Prisma.Sql): { name: string; text: string; pipelinable: boolean } {
  const { strings } = query;
  const bucket = knownStatements.byLength.get(strings.length);
  if (bucket) {
    for (const known of bucket) if (sameFragments(known.strings, strings)) return known;
  }
  const text = query.text;
  const name = statementName({ sql: text });
  const pipelinable = isPipelinable(text);
  if (knownStatements.size < MAX_KNOWN_STATEMENTS) {
    const known = { strings: [...strings], text, name, pipelinable };
    if (bucket) bucket.push(known);
    else knownStatements.byLength.set(strings.length, [known]);
    knownStatements.size++;
  }
  return { name, text, pipelinable };
}

/** SQL that writes or locks: such a statement goes through the pool, where its wait for a row lock or for its commit's WAL flush holds up no other statement. */
const WRITES_OR_LOCKS =
  /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|COPY|NOTIFY|pg_notify|add_jobs?|checkin_enqueue_job|checkin_dispatch_jobs|nextval|setval|pg_advisory\w*|FOR\s+(NO\s+KEY\s+)?UPDATE|FOR\s+(KEY\s+)?SHARE)\b/i;

/**
 * Whether a statement may run on a pipelined connection (lib/db-pipeline.ts): it reads only (no
 * data-modifying statement or CTE, no row lock, no notification, job or sequence call). Any
 * statement would run correctly there; this keeps the pipeline's head-of-line wait to reads.
 */
export function isPipelinable(text: string): boolean {
  return !WRITES_OR_LOCKS.test(text);
}

function sameFragments(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Called with every statement a client sends to PostgreSQL (Prisma's and `queryRows`'), before it is sent. */
export type StatementHook = (statement: { text: string; values: unknown[] }) => void;

/** A client class (`SerialClient` by default) that reports each statement to `hook` (config-object or text form, promise or callback style). */
function observingClient(hook: StatementHook, Base: typeof pg.Client = SerialClient): typeof pg.Client {
  return class ObservedClient extends Base {
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded query() signature is re-exposed unchanged.
    override query(...args: unknown[]): any {
      const [first, second] = args;
      if (typeof first === "string") hook({ text: first, values: Array.isArray(second) ? second : [] });
      else if (typeof first === "object" && first !== null && typeof (first as { text?: unknown }).text === "string") {
        const config = first as { text: string; values?: unknown[] };
        hook({ text: config.text, values: config.values ?? [] });
      }
      return (super.query as unknown as (...a: unknown[]) => unknown).apply(this, args);
    }
  };
}

/** Pipelined connections beside each pool (lib/db-pipeline.ts): two, so one long statement holds up only half of them. */
const PIPELINED_CONNECTIONS = 2;
/** Statements in flight on a pipelined connection before further ones go through the pool. */
const PIPELINE_MAX_IN_FLIGHT = 8;
/** `application_name` of the pipelined connections, as `pg_stat_activity` shows them. */
export const PIPELINE_APPLICATION_NAME = "checkin-pipeline";

/**
 * Switches of `newPrismaClient` for the performance machinery of this module, each on by default
 * (the server never sets them): `npm run bench:machinery` (scripts/bench-machinery.ts) builds a
 * client with one piece off beside one with everything on and measures both in one run.
 * - `named`: named statements (default `preparedStatements()`);
 * - `pipeline`: pipelined connections for reads outside transactions (default `databasePipeline()`);
 * - `directReads`: `queryRows` outside a transaction straight on the pg pool (false: through the
 *   client's `$queryRaw`);
 * - `transactionLink`: `queryRows(q, tx)` inside `transaction` straight on the transaction's
 *   connection (false: through `tx.$queryRaw`).
 */
export type ClientMachinery = { named?: boolean; pipeline?: boolean; directReads?: boolean; transactionLink?: boolean };

/**
 * A new Prisma client on `url` configured as the shared one: the `pg` adapter over a pool of
 * `databasePoolSize()` connections kept warm for 60 s, with named statements when
 * `preparedStatements()` allows them; `queryRows` uses the same pool, and for reads outside
 * transactions `PIPELINED_CONNECTIONS` pipelined connections first when `databasePipeline()`
 * (closed by `$disconnect`). `onStatement` sees every statement sent (tests and benchmarks count and
 * EXPLAIN them).
 */
export function newPrismaClient(url: string, opts: { onStatement?: StatementHook; machinery?: ClientMachinery } = {}): PrismaClient {
  const machinery = opts.machinery ?? {};
  const pool = new TransactionAwarePool({
    connectionString: url,
    max: databasePoolSize(),
    // A warm backend (catalog caches, prepared statements) answers faster than a new one.
    idleTimeoutMillis: 60_000,
    Client: opts.onStatement ? observingClient(opts.onStatement) : SerialClient,
  });
  const named = machinery.named ?? preparedStatements();
  const pipeline =
    (machinery.pipeline ?? databasePipeline())
      ? new PipelinedConnections(
          { connectionString: url, application_name: PIPELINE_APPLICATION_NAME },
          PIPELINED_CONNECTIONS,
          PIPELINE_MAX_IN_FLIGHT,
          opts.onStatement ? observingClient(opts.onStatement, pg.Client) : pg.Client,
        )
      : null;
  const adapter = new PrismaPg(pool, { disposeExternalPool: true, ...(named ? { statementNameGenerator: statementName } : {}) });
  const client = new PrismaClient({ adapter });
  poolOfClient.set(client, {
    pool,
    named,
    pipeline,
    directReads: machinery.directReads ?? true,
    transactionLink: machinery.transactionLink ?? true,
  });
  // Prisma ends the pool only when it has connected its adapter (a first Prisma query), and never
  // the pipelined connections: `$disconnect` closes whatever is still open.
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = () =>
    disconnect()
      .then(() => Promise.all([pipeline?.end(), pool.ended ? undefined : pool.end()]))
      .then(() => undefined);
  return client;
}

/**
 * Connection counts of the shared client's pg pool in this process (issue 44, `/metrics`):
 * `total` open, `idle` of them, `waiting` requests queued for one, `max` the configured size.
 * Null when the shared client was never created here (nothing connected yet).
 */
export function sharedPoolStats(): { total: number; idle: number; waiting: number; max: number } | null {
  const client = globalForDb.__checkinPrisma;
  const entry = client ? poolOfClient.get(client) : undefined;
  if (!entry) return null;
  const { pool } = entry;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}

/** Returns the shared Prisma client. Throws when DATABASE_URL is unset. */
export function getDb(): PrismaClient {
  if (globalForDb.__checkinPrisma) return globalForDb.__checkinPrisma;
  const url = databaseUrl();
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it when it starts the embedded PostgreSQL)");
  globalForDb.__checkinPrisma = newPrismaClient(url);
  return globalForDb.__checkinPrisma;
}

/** Answered `true` by every copy of the `db` proxy (Symbol.for: the same key in every bundled copy of this module). */
const SHARED_CLIENT = Symbol.for("checkin.db.shared");

/** Lazy proxy so modules can `import { db }` without connecting at import time. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    if (prop === SHARED_CLIENT) return true;
    const client = getDb() as unknown as Record<string | symbol, unknown>;
    const value = client[prop];
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(client) : value;
  },
});

/**
 * pg's text parsers for the types where Prisma's `$queryRaw` answers differently from pg's
 * defaults, so `queryRows` returns the same values on either path: `timestamp` (without time
 * zone: the column type of every Prisma `DateTime`) and `date` as UTC `Date`s, `int8` as `bigint`,
 * `numeric` as `Prisma.Decimal`, and their arrays. Everything else (int4, float8, bool, text,
 * timestamptz, json/jsonb, enums, int4[]/text[] …) already matches.
 */
const SCALAR_PARSERS: Record<number, (text: string) => unknown> = {
  1114: (text) => new Date(`${text.replace(" ", "T")}Z`),
  1082: (text) => new Date(`${text}T00:00:00Z`),
  20: (text) => BigInt(text),
  1700: (text) => new Prisma.Decimal(text),
};
/** pg's parser of a `text[]` literal: the element texts of any array type, before element parsing. */
const textArray = (pg.types.getTypeParser as (oid: number, format: "text") => (text: string) => Array<string | null>)(1009, "text");
/** The array types of those four (timestamp[], date[], int8[], numeric[]), parsed element by element. */
const ARRAY_PARSERS: Record<number, (text: string) => unknown> = Object.fromEntries(
  (
    [
      [1115, 1114],
      [1182, 1082],
      [1016, 20],
      [1231, 1700],
    ] as const
  ).map(([arrayOid, elementOid]) => {
    const parse = SCALAR_PARSERS[elementOid];
    return [arrayOid, (text: string) => textArray(text).map((v) => (v === null ? null : parse(v)))];
  }),
);
const ROW_TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    const own = format === "binary" ? undefined : (SCALAR_PARSERS[oid] ?? ARRAY_PARSERS[oid]);
    return own ?? pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** A bind value as the adapter sends it: `Date`s as UTC ISO text (pg's own format uses the process's time zone). */
function bindValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(bindValue);
  return value;
}

/**
 * The rows of one statement, as objects keyed by column name with the same values
 * `client.$queryRaw` returns (see ROW_TYPES; `tests/db-statements.test.ts` compares the two paths).
 *
 * On a client made by `newPrismaClient` (the shared `db` included) the statement goes straight to
 * the pg pool under it, named like the adapter names it: Prisma's raw-query path costs about
 * 130 µs of Node CPU per call on top (measured: 198 vs 64 µs per call for `/v1/me`'s statement,
 * issue 14), as much as an API read's own SQL. Inside an interactive transaction opened by
 * `transaction`/`inTransaction` it goes straight to that transaction's connection (about 200 µs
 * less per call than `tx.$queryRaw`); inside any other one, through `tx.$queryRaw`.
 * @throws pg's DatabaseError or connection error as is (the API maps lost connections to 503 like
 *   Prisma's wrapped ones, lib/api/unavailable.ts); through `tx.$queryRaw`, Prisma's error. An
 *   error inside a transaction rolls it back as any error of its callback does.
 */
export function queryRows<T>(query: Prisma.Sql, client: Tx = db): Promise<T[]> {
  // Not async: on the path of every API read, one promise less (`.then`) is time saved (issue 14).
  try {
    const shared = (client as unknown as Record<symbol, unknown>)[SHARED_CLIENT] === true;
    const link = shared ? undefined : connectionOfTx.get(client);
    if (link && !link.open)
      throw new Error("Transaction already closed: a query ran after its transaction ended (committed, rolled back or timed out)");
    const direct = link ? poolOfClient.get(getDb()) : poolOfClient.get(shared ? getDb() : client);
    if (!direct || (!link && !direct.directReads)) return client.$queryRaw<T[]>(query).then((rows) => rows); // `.then` runs the lazy PrismaPromise now
    const { name, text, pipelinable } = direct.named ? namedStatement(query) : { name: "", text: query.text, pipelinable: false };
    const config = {
      name: name || undefined,
      text,
      values: query.values.map(bindValue),
      types: ROW_TYPES,
    };
    const result = link ? link.connection.query(config) : (pipelinable && direct.pipeline?.query(config)) || direct.pool.query(config);
    return result.then((r) => r.rows as T[]);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** Options of an interactive transaction, as Prisma's `$transaction` takes them (milliseconds). */
export type TransactionOptions = { maxWait?: number; timeout?: number };

/**
 * Runs `fn` in the caller's transaction when one is passed, otherwise in a new interactive
 * transaction of the shared client (`transaction`): how domain writes that take an optional `tx`
 * stay atomic.
 */
export function inTransaction<T>(tx: Tx | undefined, fn: (t: Tx) => Promise<T>): Promise<T> {
  return tx ? fn(tx) : transaction(fn);
}

/**
 * Runs `fn` in a new interactive transaction of the shared client (Prisma's `$transaction`:
 * commit when `fn` resolves, rollback when it throws or `options.timeout` passes): how a route
 * makes a domain write and the read that answers it one atomic unit. `queryRows(q, t)` inside
 * `fn` runs on the transaction's connection directly (see `connectionOfTx`).
 */
export function transaction<T>(fn: (t: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
  const pending: { link?: TransactionConnection } = {};
  return pendingTransaction.run(pending, () =>
    db.$transaction((t) => {
      if (pending.link && poolOfClient.get(getDb())?.transactionLink !== false) connectionOfTx.set(t, pending.link);
      return fn(t);
    }, options),
  );
}

/** Disconnects the shared client and the API-key cache's listener (scripts and tests call this before exiting). */
export async function disconnectDb(): Promise<void> {
  await closeApiKeyCache();
  await globalForDb.__checkinPrisma?.$disconnect();
  globalForDb.__checkinPrisma = undefined;
}
