/**
 * A local SMTP sink for tests (issue 9 "Tests"): a real SMTP server (`smtp-server`) on 127.0.0.1
 * that accepts every message (any or no authentication, no TLS) and keeps it parsed
 * (`mailparser`): from, to, subject, text, html and the raw source. Point `SMTP_URL` at
 * `sink.url` (`smtp://user:pass@127.0.0.1:<port>`).
 *
 * `failNext(n)` makes the next n messages fail with a 451 (temporary failure) so retries can be
 * tested.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type SunkMail = { from: string; to: string[]; subject: string; text: string; html: string; raw: string; at: number };

export type SmtpSink = {
  url: string;
  port: number;
  messages: SunkMail[];
  failNext: (n?: number) => void;
  waitFor: (predicate: (messages: SunkMail[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
};

/** Starts the sink on 127.0.0.1 (any free port unless `port` is given). */
export async function startSmtpSink(opts: { port?: number } = {}): Promise<SmtpSink> {
  const messages: SunkMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (failures > 0) {
          failures -= 1;
          const err = Object.assign(new Error("Temporary failure (injected by the test sink)"), { responseCode: 451 });
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = await simpleParser(raw);
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: typeof parsed.html === "string" ? parsed.html : "",
          raw,
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://test:test@127.0.0.1:${port}`,
    port,
    messages,
    failNext: (n = 1) => {
      failures += n;
    },
    waitFor: async (predicate, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(messages)) {
        if (Date.now() > deadline) throw new Error(`SMTP sink: timed out after ${timeoutMs} ms (${messages.length} message(s) received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
