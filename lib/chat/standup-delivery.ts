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
import { standupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import { latestOccurrencesQuery } from "@/lib/domain/occurrences";
import type { Prisma } from "@/lib/generated/prisma/client";

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

/** The columns of a message the page shows (bodies are not read). */
const MESSAGE_SELECT = {
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
} as const;

type MessageRow = Prisma.ChatMessageGetPayload<{ select: typeof MESSAGE_SELECT }>;

function toMessage(m: MessageRow): StandupDeliveryMessage {
  return {
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
  };
}

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
        select: MESSAGE_SELECT,
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
      .map(toMessage),
  }));
}

/** Messages per page of the standup page's delivery list (issue 49: the page does not grow with the history). */
export const DELIVERIES_PER_PAGE = 20;

/** One page of a standup's messages: grouped by occurrence, newest first; `nextBefore` is the cursor of the older page. */
export type StandupDeliveryPage = { occurrences: OccurrenceDelivery[]; nextBefore: number | null };

/**
 * One page of the standup's run messages (questions, reminders, report broadcasts, digests of an
 * occurrence), newest first: the `limit` (default `DELIVERIES_PER_PAGE`, at most 100) messages with
 * an id below `before` (a message id, the previous page's `nextBefore`; none: the newest), read with
 * one keyset query bounded by `LIMIT` (index `chat_messages(checkin_id, id)`), so a page costs the
 * same at two years of history as at 30 days. Messages are grouped by occurrence (newest occurrence
 * first; an occurrence cut by the page edge continues on the next page), failed ones first within a
 * group, as in `listStandupDeliveries`.
 * @throws NotFoundError when the actor cannot read the standup.
 */
export async function listStandupDeliveryPage(
  actor: Actor,
  input: { standupId: number; before?: number; limit?: number },
  tx: Tx = db,
): Promise<StandupDeliveryPage> {
  const visible = await tx.checkin.findFirst({
    where: { AND: [{ id: input.standupId }, standupWhere(actor, { drafts: true, teamWide: "readers" })] },
    select: { id: true },
  });
  if (!visible) throw new NotFoundError("Standup");
  const limit = Math.min(Math.max(1, input.limit ?? DELIVERIES_PER_PAGE), 100);
  const rows = await tx.chatMessage.findMany({
    where: {
      team_id: actor.teamId,
      checkin_id: input.standupId,
      occurrence_id: { not: null },
      ...(input.before !== undefined ? { id: { lt: input.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: limit + 1,
    select: { ...MESSAGE_SELECT, occurrence_id: true, occurrence: { select: { date: true } } },
  });
  const page = rows.slice(0, limit);
  const groups: OccurrenceDelivery[] = [];
  for (const m of page) {
    const last = groups.at(-1);
    const message = toMessage(m);
    if (last && last.occurrenceId === m.occurrence_id) last.messages.push(message);
    else
      groups.push({
        occurrenceId: m.occurrence_id as number,
        date: m.occurrence?.date.toISOString().slice(0, 10) ?? "",
        truncated: false,
        messages: [message],
      });
  }
  for (const g of groups) g.messages.sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.id - b.id);
  return { occurrences: groups, nextBefore: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}
