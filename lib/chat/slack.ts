/**
 * The Slack adapter (issue 9): `@slack/web-api` 8.x against `SLACK_API_URL` (default Slack's own,
 * tests point it at tests/fakes/slack.ts). Channel messages → `chat.postMessage` (in a thread when
 * `threadTs` is set), edits → `chat.update`, removals → `chat.delete`, direct messages →
 * `conversations.open` + `chat.postMessage`. Every post carries Slack message metadata
 * `{event_type: "checkin_message", event_payload: {ts}}` with the outbox row's `ts`, so after a
 * crash between Slack accepting a post and our recording it, `findPosted` recognises the message
 * in the channel history instead of posting it twice.
 *
 * Rate limits (about one message per second per channel): a 429's `Retry-After` (seconds) is
 * honoured by waiting in place when it is at most `maxInlineWaitSeconds` (default 30; the job keeps
 * its channel queue, so order is kept), else a `RetryLaterError` tells the job when to come back.
 * Slack answers that retrying cannot fix (unknown channel or user, revoked token...) become a
 * `PermanentDeliveryError`.
 */
import { ErrorCode, WebClient } from "@slack/web-api";
import type { ChatAdapter, OutgoingMessage, PlatformMessageRef, SendResult } from "@/lib/chat/adapter";
import { PermanentDeliveryError, RetryLaterError } from "@/lib/chat/errors";

/** Slack error codes that a retry cannot fix. */
const PERMANENT = new Set([
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "user_not_found",
  "user_disabled",
  "users_not_found",
  "cannot_dm_bot",
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "missing_scope",
  "msg_too_long",
  "no_text",
  "invalid_blocks",
  "message_not_found",
  "cant_update_message",
  "restricted_action",
]);

export const SLACK_METADATA_EVENT = "checkin_message";

export type SlackAdapter = ChatAdapter & {
  client: WebClient;
  /** The platform ts of a message we posted earlier into `channel` for outbox `ts`, or null. */
  findPosted(channel: string, ts: string): Promise<string | null>;
  /** Opens (or reuses) the DM channel with a user; returns its id. */
  openDirectChannel(user: string): Promise<string>;
  /** Opens a modal for an interaction's `trigger_id` (must happen within 3 s of the click). */
  openView(triggerId: string, view: Record<string, unknown>): Promise<void>;
};

export type SlackAdapterOptions = {
  token: string;
  /** Base URL ending in /api/ (default https://slack.com/api/). */
  apiUrl?: string;
  maxInlineWaitSeconds?: number;
  /** Request timeout in ms (default 10 000). */
  timeoutMs?: number;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates the adapter; no network call happens until a message is sent. */
export function createSlackAdapter(opts: SlackAdapterOptions): SlackAdapter {
  const client = new WebClient(opts.token, {
    slackApiUrl: opts.apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 2, minTimeout: 200, maxTimeout: 2000 },
    timeout: opts.timeoutMs ?? 10_000,
    logLevel: undefined,
    logger: { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => "error" as never, setName() {} },
  });
  const maxWait = opts.maxInlineWaitSeconds ?? 30;

  /** Runs one Web API call, waiting out short rate limits and classifying errors. */
  async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const e = err as { code?: string; retryAfter?: number; data?: { error?: string } };
        if (e.code === ErrorCode.RateLimitedError) {
          const wait = e.retryAfter ?? 1;
          if (wait <= maxWait && attempt < 5) {
            await sleep(wait * 1000);
            continue;
          }
          throw new RetryLaterError(`Slack rate limit on ${what} (Retry-After ${wait} s)`, wait);
        }
        if (e.code === ErrorCode.PlatformError && e.data?.error) {
          const msg = `Slack ${what}: ${e.data.error}`;
          if (PERMANENT.has(e.data.error)) throw new PermanentDeliveryError(msg, e.data.error);
          throw new Error(msg);
        }
        throw new Error(`Slack ${what}: ${(err as Error).message}`);
      }
    }
  }

  const metadata = (m: OutgoingMessage) => ({ event_type: SLACK_METADATA_EVENT, event_payload: { ts: m.ts } });

  async function post(channel: string, message: OutgoingMessage): Promise<SendResult> {
    const r = await call("chat.postMessage", () =>
      client.chat.postMessage({
        channel,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks as never } : {}),
        ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
        metadata: metadata(message),
        unfurl_links: false,
      }),
    );
    return { externalTs: r.ts as string };
  }

  async function openDirectChannel(user: string): Promise<string> {
    const r = await call("conversations.open", () => client.conversations.open({ users: user }));
    const id = r.channel?.id;
    if (!id) throw new Error("Slack conversations.open: no channel id in the answer");
    return id;
  }

  return {
    name: "slack",
    client,
    post,
    update: async (ref: PlatformMessageRef, message: OutgoingMessage) => {
      await call("chat.update", () =>
        client.chat.update({
          channel: ref.channel,
          ts: ref.externalTs,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks as never } : {}),
        }),
      );
    },
    delete: async (ref: PlatformMessageRef) => {
      try {
        await call("chat.delete", () => client.chat.delete({ channel: ref.channel, ts: ref.externalTs }));
      } catch (err) {
        // Already gone (deleted in Slack by someone): the state we want.
        if (err instanceof PermanentDeliveryError && err.code === "message_not_found") return;
        throw err;
      }
    },
    directMessage: async (user: string, message: OutgoingMessage) => {
      const channel = await openDirectChannel(user);
      const sent = await post(channel, message);
      return { ...sent, channel };
    },
    findPosted: async (channel: string, ts: string) => {
      const r = await call("conversations.history", () =>
        client.conversations.history({ channel, limit: 100, include_all_metadata: true }),
      );
      for (const m of r.messages ?? []) {
        const meta = m.metadata as { event_type?: string; event_payload?: { ts?: string } } | undefined;
        if (meta?.event_type === SLACK_METADATA_EVENT && meta.event_payload?.ts === ts && m.ts) return m.ts;
      }
      return null;
    },
    openDirectChannel,
    openView: async (triggerId, view) => {
      await call("views.open", () => client.views.open({ trigger_id: triggerId, view: view as never }));
    },
  };
}
