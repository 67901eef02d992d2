/**
 * Delivery by destination (issue 9 delivery, issue 14 cost; migration `*_delivery_by_destination`).
 * A destination is where a message goes: a channel (`c<channel id>`), else the recipient of a
 * direct message (`u<user id>`), else the message alone (`m<message id>`) — the same expression as
 * the enqueueing trigger. Every message that becomes pending enqueues the destination's one job
 * (`deliver_chat_destination`, job key `chat_destination:<destination>`, queue
 * `chat:<destination>`), and that job calls `drainDestination`: it delivers the destination's
 * pending messages one at a time, oldest first, through `deliverChatMessage`, until none is due.
 *
 * Retries keep issue 9's rules, per message: a transient error counts a failure on the message
 * (`delivery_failures`) and makes it wait `retryDelaySeconds` (`delivery_retry_at`) while the
 * destination's other messages go on; the 10th failure marks it `failed`. A platform's Retry-After
 * (rate limit) stops the whole destination for that long without counting a failure. A message
 * that changes starts its retries afresh (trigger `chat_messages_reset_retry`).
 */
import { type DeliveryDeps, deliverChatMessage } from "@/lib/chat/delivery";
import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** A destination key: `c<channel id>`, `u<recipient id>` or `m<message id>`. */
export type Destination = string;

/** Delivery runs of one message before it is marked `failed` (issue 9). */
export const MAX_DELIVERY_ATTEMPTS = 10;

/** Messages one drain delivers at most before it hands its destination to a fresh job (fairness between destinations). */
export const DRAIN_BATCH = 100;

/** The destination key of a message (the enqueueing trigger's expression). */
export function destinationOf(m: { id: number; channel_id: number | null; recipient_id: number | null }): Destination {
  if (m.channel_id !== null) return `c${m.channel_id}`;
  return m.recipient_id !== null ? `u${m.recipient_id}` : `m${m.id}`;
}

/** The job key, queue name and payload of a destination's delivery job (as the trigger writes them). */
export function destinationJob(destination: Destination): { jobKey: string; queueName: string; payload: { destination: string } } {
  return { jobKey: `chat_destination:${destination}`, queueName: `chat:${destination}`, payload: { destination } };
}

/** Parses a destination key. @returns the column and id it selects, or null for a malformed key. */
function parseDestination(destination: unknown): { kind: "c" | "u" | "m"; id: number } | null {
  const match = typeof destination === "string" ? /^([cum])([1-9][0-9]{0,9})$/.exec(destination) : null;
  if (!match) return null;
  const id = Number(match[2]);
  return id <= 2_147_483_647 ? { kind: match[1] as "c" | "u" | "m", id } : null;
}

/** What a drain left to do: nothing, more right away, or its destination's next due time. */
export type DrainOutcome = {
  delivered: number;
  failed: number;
  /** "more": the batch was full, run again now; "wait": Retry-After, the whole destination waits until `at`; "retry": the earliest message in backoff is due at `at`. */
  next: { kind: "more" } | { kind: "wait"; at: Date } | { kind: "retry"; at: Date } | null;
};

/**
 * Delivers the pending messages of `destination` that are due, oldest first (see the module comment).
 * @param opts.batch messages at most in this run (default DRAIN_BATCH).
 * @returns counts and what is left (the caller schedules it). A malformed destination drains nothing.
 * @throws only what the database throws (platform errors are handled per message).
 */
export async function drainDestination(deps: DeliveryDeps, destination: Destination, opts: { batch?: number } = {}): Promise<DrainOutcome> {
  const dest = parseDestination(destination);
  const outcome: DrainOutcome = { delivered: 0, failed: 0, next: null };
  if (!dest) return outcome;
  const batch = opts.batch ?? DRAIN_BATCH;
  for (let done = 0; done < batch; done++) {
    const next = await nextDueMessage(deps.db, dest);
    if (!next) {
      const at = await earliestRetry(deps.db, dest);
      if (at) outcome.next = { kind: "retry", at };
      return outcome;
    }
    const result = await deliverChatMessage(deps, next.id, { attempts: next.delivery_failures + 1, maxAttempts: MAX_DELIVERY_ATTEMPTS });
    if (result.result === "delivered") outcome.delivered++;
    else if (result.result === "failed") {
      outcome.failed++;
      deps.log(`delivery: message ${next.id} failed: ${result.error}`);
    } else if (result.result === "retry" && result.afterSeconds !== undefined) {
      outcome.next = { kind: "wait", at: new Date(Date.now() + result.afterSeconds * 1000) };
      return outcome;
    }
  }
  outcome.next = { kind: "more" };
  return outcome;
}

/** The SQL condition selecting the messages of a parsed destination (the trigger's expression). */
function destinationWhere(d: { kind: "c" | "u" | "m"; id: number }): Prisma.Sql {
  if (d.kind === "c") return Prisma.sql`channel_id = ${d.id}`;
  if (d.kind === "u") return Prisma.sql`recipient_id = ${d.id} AND channel_id IS NULL`;
  return Prisma.sql`id = ${d.id} AND channel_id IS NULL AND recipient_id IS NULL`;
}

/** The oldest pending message of a parsed destination that is due (not in backoff), or null. */
async function nextDueMessage(db: Db, d: { kind: "c" | "u" | "m"; id: number }) {
  const rows = await db.$queryRaw<Array<{ id: number; delivery_failures: number }>>`
    SELECT id, delivery_failures FROM chat_messages
    WHERE ${destinationWhere(d)} AND delivery_state = 'pending' AND (delivery_retry_at IS NULL OR delivery_retry_at <= now())
    ORDER BY id LIMIT 1`;
  return rows[0] ?? null;
}

/** The earliest due time of a destination's pending messages in backoff, or null. */
async function earliestRetry(db: Db, d: { kind: "c" | "u" | "m"; id: number }): Promise<Date | null> {
  const rows = await db.$queryRaw<Array<{ at: Date | null }>>`
    SELECT min(delivery_retry_at) AS at FROM chat_messages WHERE ${destinationWhere(d)} AND delivery_state = 'pending'`;
  return rows[0]?.at ?? null;
}
