/**
 * Delivery state of one standup's messages (issue 9 "Delivery state is visible", standup page):
 * for its latest occurrences, every outbox row about the standup — direct questions, reminders,
 * report broadcasts, digests — with where it went (a member or a channel), its delivery state
 * (pending / delivered / failed with the error) and the adapter that delivered it. Message bodies
 * are not returned (the report cards show what may be read). Read-only; visibility is the standup
 * page's (`standupWhere(actor, { drafts, teamWide: "readers" })`). Failed messages are retried with
 * `retryFailedMessage` (lib/chat/retry.ts), the same function the Channels page uses.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { latestOccurrencesQuery } from "@/lib/domain/occurrences";

/** One outbox row as the standup page shows it; instants are UTC `Date`s. */
export type StandupDeliveryMessage = {
  id: number;
  kind: "report" | "poll" | "question" | "reminder" | "poll_results" | "digest";
  /** Who or where: the recipient's name for a direct message, "#channel" for a channel message. */
  to: string;
  state: "pending" | "delivered" | "failed" | "held";
  /** Adapter that delivered it ("builtin", "slack", "email"), null until delivered once. */
  via: string | null;
  /** Last delivery error: the reason when failed, the last attempt's error while pending. */
  error: string | null;
  attempts: number;
  createdAt: Date;
  deliveredAt: Date | null;
  /** Set when the message was removed (a discarded report): delivery then deletes it on the platform. */
  removedAt: Date | null;
};

/** One occurrence (local date "YYYY-MM-DD") with its messages, oldest first; `truncated` when more than the cap exist. */
export type OccurrenceDelivery = {
  occurrenceId: number;
  date: string;
  messages: StandupDeliveryMessage[];
  truncated: boolean;
};

const STATE_ORDER = { failed: 0, pending: 1, held: 2, delivered: 3 } as const;

/** At most this many messages are listed per occurrence (a large team's questions and reminders). */
export const MESSAGES_PER_OCCURRENCE = 200;

/**
 * The messages of the standup's latest `limit` (default 3, at most 10) occurrences, newest
 * occurrence first, each with at most `MESSAGES_PER_OCCURRENCE` messages, failed ones first, then
 * pending, then delivered (each oldest first).
 * @throws NotFoundError when the actor cannot read the standup.
 */
export async function listStandupDeliveries(
  actor: Actor,
  input: { standupId: number; limit?: number },
  tx: Tx = db,
): Promise<OccurrenceDelivery[]> {
  const occurrences = await tx.occurrence.findMany({
    ...(await latestOccurrencesQuery(tx, actor, input)),
    select: {
      id: true,
      date: true,
      chat_messages: {
        where: { team_id: actor.teamId, checkin_id: input.standupId },
        // enum order pending < delivered < failed: descending keeps the failed ones inside the cap
        orderBy: [{ delivery_state: "desc" }, { id: "asc" }],
        take: MESSAGES_PER_OCCURRENCE + 1,
        select: {
          id: true,
          kind: true,
          delivery_state: true,
          delivered_via: true,
          delivery_error: true,
          delivery_attempts: true,
          created_at: true,
          delivered_at: true,
          deleted_at: true,
          channel: { select: { name: true } },
          recipient: { select: { realname: true } },
        },
      },
    },
  });
  return occurrences.map((o) => ({
    occurrenceId: o.id,
    date: o.date.toISOString().slice(0, 10),
    truncated: o.chat_messages.length > MESSAGES_PER_OCCURRENCE,
    messages: o.chat_messages
      .slice(0, MESSAGES_PER_OCCURRENCE)
      .sort((a, b) => STATE_ORDER[a.delivery_state] - STATE_ORDER[b.delivery_state] || a.id - b.id)
      .map((m) => ({
        id: m.id,
        kind: m.kind,
        to: m.channel ? `#${m.channel.name}` : (m.recipient?.realname ?? "—"),
        state: m.delivery_state,
        via: m.delivered_via ?? (m.delivered_at ? "builtin" : null),
        error: m.delivery_error,
        attempts: m.delivery_attempts,
        createdAt: m.created_at,
        deliveredAt: m.delivered_at,
        removedAt: m.deleted_at,
      })),
  }));
}
