/**
 * The seam between the chat outbox (lib/domain/outbox.ts: `chat_messages` rows written in the same
 * transaction as the data) and a chat platform. A delivery job reads pending rows and hands each
 * to the team's adapter: a new channel message → `post`, a changed one → `update`, one marked
 * deleted → `delete`, a direct question → `directMessage`. Adapters never touch the database;
 * the job records the outcome (`delivery_state`, `external_ts`, attempts).
 *
 * Implementations: the built-in adapter (lib/chat/builtin.ts; lib/domain/channel-feed.ts is the feed shown in
 * the dashboard, the offline default); platform adapters (Slack, e-mail) come with delivery.
 */

/** A message as an adapter sends it: plain text plus optional platform blocks. */
export type OutgoingMessage = {
  /** The outbox row's `ts` (spec `chat_ts`): stable id of the message inside the service. */
  ts: string;
  text: string;
  /** Platform-specific rich content (e.g. Slack blocks); adapters that cannot render it ignore it. */
  blocks?: unknown;
  /** Post as a reply in this platform thread (the parent's platform ts); adapters without threads ignore it. */
  threadTs?: string;
  /** E-mail subject (other adapters ignore it). */
  subject?: string;
};

/** Where a channel message lives on the platform: its channel and the platform's message id. */
export type PlatformMessageRef = { channel: string; externalTs: string };

/** The outcome of a send: the platform's id for the message (used by later updates and deletes). */
export type SendResult = {
  externalTs: string;
  /** Platform channel the message landed in when it differs from the one asked (a DM channel). */
  channel?: string;
};

/**
 * What a chat platform must offer. Every method resolves when the platform accepted the call and
 * rejects with an Error when it did not (the job retries with backoff); calls may be repeated for
 * the same message after a crash, so implementations should be idempotent where the platform allows.
 */
export type ChatAdapter = {
  /** Short name, e.g. "builtin", "slack", "email" (stored with delivery logs). */
  readonly name: string;
  /** Posts a message to a channel (channel chat id, e.g. C0123ABCD). */
  post(channel: string, message: OutgoingMessage): Promise<SendResult>;
  /** Replaces the text of a message posted earlier. */
  update(ref: PlatformMessageRef, message: OutgoingMessage): Promise<void>;
  /** Deletes a message posted earlier; deleting one that is already gone is not an error. */
  delete(ref: PlatformMessageRef): Promise<void>;
  /** Sends a direct message to a user (user chat id, e.g. U0123ABCD). */
  directMessage(user: string, message: OutgoingMessage): Promise<SendResult>;
};
