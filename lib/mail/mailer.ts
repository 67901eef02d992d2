/**
 * Sends transactional e-mail (invitations, password resets) through nodemailer when `SMTP_URL` is
 * set: the worker's `send_email` task calls `deliverEmail` (retried with graphile-worker's backoff,
 * up to 10 attempts). Writers enqueue the e-mail with lib/mail/enqueue.ts `enqueueEmail` in their
 * transaction instead of loading this module.
 */
import nodemailer from "nodemailer";
import { smtpSettings } from "@/lib/env";
import type { EmailMessage } from "@/lib/mail/enqueue";

export type { EmailMessage } from "@/lib/mail/enqueue";

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
