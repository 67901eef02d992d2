/**
 * One-off connections for the runtime and its tools: a direct pg client to a database URL, opened
 * for one piece of work and always closed (no pool, no Prisma), e.g. before the app's client exists.
 */
import pg from "pg";

/** Runs `fn` with a new pg client connected to `url` and ends the client afterwards, whatever `fn` does. */
export async function withPgClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The rows of one statement `text` (with `$n` `values`) run on a connection of its own to `url`. */
export function queryOnce<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  return withPgClient(url, async (client) => (await client.query<T>(text, values)).rows);
}
