/**
 * Transactional e-mail as the domain writes it (invitations, password resets): `enqueueEmail` adds
 * a graphile-worker job (`send_email`) with plain SQL inside the caller's transaction, so the e-mail
 * exists exactly when the data that caused it does; the job key makes a retried enqueue of the same
 * message a no-op. The worker sends it with lib/mail/mailer.ts `deliverEmail` (nodemailer), which
 * the domain never loads (CODE_STYLE.md "Layers"). Without `SMTP_URL` nothing is enqueued and the
 * callers show the link once instead.
 */
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
 * Enqueues `message` for delivery in the caller's transaction (job `send_email`, up to 10 attempts).
 * @param jobKey de-duplication key (graphile-worker `job_key`), e.g. `invite:<token id>`.
 */
export async function enqueueEmail(tx: Tx, message: EmailMessage, jobKey: string): Promise<void> {
  await enqueueJob(tx, "send_email", message, { jobKey, maxAttempts: 10 });
}
