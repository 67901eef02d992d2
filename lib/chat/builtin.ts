/**
 * The built-in chat adapter. The built-in "platform" is the database itself: the outbox rows ARE
 * the channel messages, so `builtinAdapter` has nothing to send — it accepts every call and
 * answers the outbox row's own `ts` as the platform id — and the dashboard reads the feed
 * (lib/domain/channel-feed.ts). This keeps the whole loop working offline (ARCHITECTURE §4).
 */
import type { ChatAdapter } from "@/lib/chat/adapter";

/** The built-in adapter: messages already live in `chat_messages`; nothing leaves the service. */
export const builtinAdapter: ChatAdapter = {
  name: "builtin",
  post: async (_channel, message) => ({ externalTs: message.ts }),
  update: async () => {},
  delete: async () => {},
  directMessage: async (_user, message) => ({ externalTs: message.ts }),
};
