/**
 * Transactional e-mail (invitations, password resets) through nodemailer when `SMTP_URL` is set.
 *
 * `enqueueEmail` adds a graphile-worker job (`send_email`) with plain SQL inside the caller's
 * transaction, so the e-mail exists exactly when the data that caused it does; the worker sends it
 * with `deliverEmail` (retried with graphile-worker's backoff, up to 10 attempts; the job key makes
 * a retried enqueue of the same message a no-op). Without `SMTP_URL` nothing is enqueued and the
 * callers show the link once instead.
 */
import nodemailer from "nodemailer";
import type { Tx } from "@/lib/db";
import { smtpSettings } from "@/lib/env";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** One e-mail: plain text body (links on their own line). */
export type EmailMessage = { to: string; subject: string; text: string };

/** True when `SMTP_URL` is configured (e-mails are sent rather than links shown). */
export function emailConfigured(): boolean {
  return smtpSettings() !== null;
}

/**
 * Enqueues `message` for delivery in the caller's transaction.
 * @param jobKey de-duplication key (graphile-worker `job_key`), e.g. `invite:<token id>`.
 */
export async function enqueueEmail(tx: Tx, message: EmailMessage, jobKey: string): Promise<void> {
  await enqueueJob(tx, "send_email", message, { jobKey, maxAttempts: 10 });
}

let transport: nodemailer.Transporter | undefined;
let transportUrl: string | undefined;

/**
 * Sends one e-mail through `SMTP_URL` now (the `send_email` task calls this).
 * @throws when SMTP is not configured or the server refuses the message (the job is retried).
 */
export async function deliverEmail(message: EmailMessage): Promise<void> {
  const smtp = smtpSettings();
  if (!smtp) throw new Error("SMTP_URL is not set: cannot send e-mail");
  if (!transport || transportUrl !== smtp.url) {
    transport = nodemailer.createTransport(smtp.url);
    transportUrl = smtp.url;
  }
  await transport.sendMail({ from: smtp.from, to: message.to, subject: message.subject, text: message.text });
}
