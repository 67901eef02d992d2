/**
 * The `fetch_activity` job's work (issue 48; lib/domain/activity-suggestions.ts has the rest):
 * reads each asked person's activity connections through the connectors (lib/activity) and caches
 * the items and per-source errors for the run. Apart from activity-suggestions.ts so that the asking
 * pass, the answer forms and the report writes do not load the connectors.
 */
import { fetchSourceActivity } from "@/lib/activity/fetch";
import { type ActivityItem, PROVIDER_LABELS } from "@/lib/activity/types";
import { type Db, db as defaultDb } from "@/lib/db";
import { openSecret, SecretBoxError } from "@/lib/domain/secret-box";
import type { Prisma } from "@/lib/generated/prisma/client";

/** People fetched at once by one job. */
const CONCURRENCY = 4;

/** What one fill did for one person. */
export type FillResult = { userId: number; items: number; errors: string[] };

/**
 * The `fetch_activity` job: fetches, for every suggestion of the occurrence not fetched yet, the
 * person's connections (in parallel, each with its time limit and caps), stores the items (newest
 * first) and one error line per failing source, and notes each connection's last fetch and error.
 * A token that cannot be opened (AUTH_SECRET changed) is a source error too ("reconnect").
 * @param opts.allowPrivate the webhook address policy (`WEBHOOKS_ALLOW_PRIVATE`).
 * @throws only database errors (the job is retried).
 */
export async function fillActivitySuggestions(
  occurrenceId: number,
  opts: { allowPrivate: boolean; now?: Date; timeoutMs?: number },
  client: Db = defaultDb,
): Promise<FillResult[]> {
  const now = opts.now ?? new Date();
  const pending = await client.activitySuggestion.findMany({
    where: { occurrence_id: occurrenceId, fetched_at: null },
    select: { user_id: true, team_id: true, since: true },
  });
  const results: FillResult[] = [];
  for (let i = 0; i < pending.length; i += CONCURRENCY) {
    const batch = pending.slice(i, i + CONCURRENCY);
    results.push(...(await Promise.all(batch.map((s) => fillOne(client, occurrenceId, s, now, opts)))));
  }
  return results;
}

async function fillOne(
  client: Db,
  occurrenceId: number,
  s: { user_id: number; team_id: number; since: Date },
  now: Date,
  opts: { allowPrivate: boolean; timeoutMs?: number },
): Promise<FillResult> {
  const connections = await client.activityConnection.findMany({
    where: { team_id: s.team_id, user_id: s.user_id },
    orderBy: { id: "asc" },
    select: { id: true, provider: true, base_url: true, login: true, token_sealed: true },
  });
  const period = { since: s.since, until: now };
  const outcomes = await Promise.all(
    connections.map(async (c) => {
      let token: string;
      try {
        token = openSecret(c.token_sealed);
      } catch (err) {
        if (!(err instanceof SecretBoxError)) throw err;
        return { id: c.id, provider: c.provider, result: { ok: false as const, error: "the stored token cannot be read: reconnect" } };
      }
      const result = await fetchSourceActivity(c.provider, { baseUrl: c.base_url, login: c.login, token }, period, {
        allowPrivate: opts.allowPrivate,
        timeoutMs: opts.timeoutMs,
      });
      return { id: c.id, provider: c.provider, result };
    }),
  );
  const items: ActivityItem[] = outcomes.flatMap((o) => (o.result.ok ? o.result.items : []));
  items.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  const errors = outcomes.flatMap((o) => (o.result.ok ? [] : [`${PROVIDER_LABELS[o.provider]}: ${o.result.error}`]));
  await client.$transaction(async (tx) => {
    await tx.activitySuggestion.update({
      where: { occurrence_id_user_id: { occurrence_id: occurrenceId, user_id: s.user_id } },
      data: { items: items as unknown as Prisma.InputJsonValue, errors, fetched_at: now },
    });
    for (const o of outcomes) {
      await tx.activityConnection.updateMany({
        where: { id: o.id, team_id: s.team_id },
        data: { last_fetched_at: now, last_error: o.result.ok ? null : o.result.error },
      });
    }
  });
  return { userId: s.user_id, items: items.length, errors };
}
