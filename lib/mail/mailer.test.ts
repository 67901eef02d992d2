/**
 * E-mail delivery through a real SMTP conversation: a local smtp-server sink on 127.0.0.1, the
 * graphile-worker runner with the real task list, and an invitation and a password reset that
 * enqueue their e-mails in the same transaction as the token.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { requestPasswordReset } from "@/lib/domain/passwords";
import { invitePerson } from "@/lib/domain/people";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { createTestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

type Received = { to: string[]; raw: string };
const inbox: Received[] = [];
let sink: SMTPServer;
let worker: JobWorker;

beforeAll(async () => {
  // Its own database: another file's worker must never run (and send elsewhere) this file's e-mails.
  await useIsolatedDatabase("mail");
  sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const { port } = sink.server.address() as AddressInfo;
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.MAIL_FROM = "Check-in Test <noreply@checkin.test>";
  process.env.PUBLIC_URL = "http://checkin.test/"; // links are built from it (trailing slash dropped)
  worker = await startWorker({ connectionString: process.env.DATABASE_URL as string, log: () => {}, crontab: "" });
});

afterAll(async () => {
  await worker?.stop();
  await new Promise<void>((resolve) => sink.close(() => resolve()));
  delete process.env.SMTP_URL;
  delete process.env.PUBLIC_URL;
});

async function waitForMail(to: string): Promise<Received> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const found = inbox.find((m) => m.to.includes(to));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no e-mail to ${to}`);
}

/** The link of a quoted-printable plain-text body (soft line breaks joined). */
function linkIn(raw: string, path: string): string {
  const body = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const m = new RegExp(`https?://\\S+${path}/[A-Za-z0-9_-]{43}`).exec(body);
  if (!m) throw new Error(`no ${path} link in:\n${body}`);
  return m[0];
}

describe("e-mail through SMTP", () => {
  it("sends the invitation e-mail exactly once with a working link, and shows no link in the app", async () => {
    const team = await createTestTeam({ members: 0 });
    const email = `mailed.${team.id}@example.com`;
    const inv = await invitePerson(team.admin.actor, { email, name: "Mailed Person" }, { baseUrl: "http://checkin.test" });
    expect(inv).toMatchObject({ emailed: true, link: null });
    const mail = await waitForMail(email);
    expect(mail.raw).toMatch(/Subject: You are invited to/);
    expect(mail.raw).toMatch(/From: "?Check-in Test"? <noreply@checkin.test>/);
    const link = linkIn(mail.raw, "/invite");
    expect(link.startsWith("http://checkin.test/invite/")).toBe(true);
    expect(await db.authToken.count({ where: { user_id: inv.userId, used_at: null, expires_at: { gt: new Date() } } })).toBe(1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(inbox.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it("sends a reset link only to existing active addresses, answering the same either way", async () => {
    const team = await createTestTeam({ members: 1 });
    const member = team.users[1];
    // Address patterns (issue 40 item 5) reach nobody: `%` and `_` are not wildcards.
    const [local, domain] = member.email.split("@");
    for (const pattern of ["%", `${local.slice(0, 3)}%@${domain}`, `${local}@${domain.slice(0, -1)}_`, `_${member.email.slice(1)}`])
      expect(await requestPasswordReset({ email: pattern })).toEqual({ emailConfigured: true });
    expect(await requestPasswordReset({ email: member.email.toUpperCase() })).toEqual({ emailConfigured: true });
    expect(await requestPasswordReset({ email: `nobody.${team.id}@example.com` })).toEqual({ emailConfigured: true });
    const mail = await waitForMail(member.email);
    expect(linkIn(mail.raw, "/reset-password")).toMatch(/^http:\/\/checkin.test\/reset-password\//);
    await new Promise((r) => setTimeout(r, 1000));
    expect(inbox.some((m) => m.to.includes(`nobody.${team.id}@example.com`))).toBe(false);
    // One e-mail, one token: the patterns issued nothing.
    expect(inbox.filter((m) => m.to.includes(member.email))).toHaveLength(1);
    expect(await db.authToken.count({ where: { user_id: member.id, kind: "password_reset" } })).toBe(1);
  });
});
