/**
 * The e-mail adapter (issue 9): nodemailer over `SMTP_URL`, From `MAIL_FROM`. E-mail only carries
 * direct messages (questions and reminders to members without a chat identity or who chose
 * e-mail); `user` is the recipient's address. A sent mail cannot be edited or recalled, so
 * `update`/`delete` do nothing; channel posts are not sent by e-mail (PermanentDeliveryError).
 * SMTP 5xx answers are permanent, anything else (4xx, connection errors) is retried by the job.
 */
import nodemailer from "nodemailer";
import type { ChatAdapter, OutgoingMessage } from "@/lib/chat/adapter";
import { PermanentDeliveryError } from "@/lib/chat/errors";

export type EmailAdapter = ChatAdapter & { close(): void };

/** Creates the adapter over one pooled SMTP transport. */
export function createEmailAdapter(opts: { url: string; from: string }): EmailAdapter {
  const transport = nodemailer.createTransport(opts.url);
  return {
    name: "email",
    post: async (channel) => {
      throw new PermanentDeliveryError(`E-mail cannot post to channel ${channel}`, "unsupported");
    },
    update: async () => {},
    delete: async () => {},
    directMessage: async (to: string, message: OutgoingMessage) => {
      try {
        const info = await transport.sendMail({
          from: opts.from,
          to,
          subject: message.subject ?? message.text.split("\n")[0].slice(0, 120),
          text: message.text,
        });
        return { externalTs: info.messageId, channel: to };
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode;
        if (code && code >= 500) throw new PermanentDeliveryError(`SMTP ${code}: ${(err as Error).message}`, `smtp_${code}`);
        throw new Error(`SMTP: ${(err as Error).message}`);
      }
    },
    close: () => transport.close(),
  };
}
