/**
 * Domain and API messages rewritten for the people who use the dashboard (issue 41 item 8): each
 * names the field as the form labels it and says what to do. The domain keeps its developer
 * wording for the API (spec'd messages), the dashboard translates here.
 */

/**
 * The Reports filter range: a message for the "To" field when "From" (YYYY-MM-DD) is after "To",
 * else null.
 */
export function reportRangeError(from: string | undefined, to: string | undefined): string | null {
  if (!from || !to || !/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return null;
  return from > to ? "“To” is before “From”: pick a “To” date on or after the “From” date, or clear one of them." : null;
}

/** A report-window error of lib/domain/reports.ts `resolveReportWindow` in the words of the Reports filters. */
export function reportWindowMessage(message: string): string {
  if (/reversed range/.test(message)) return "“To” is before “From”: pick a “To” date on or after the “From” date, or clear one of them.";
  if (/must not be in the future/.test(message)) return "“From” is in the future: pick today or an earlier date.";
  const days = /must not exceed (\d+) days/.exec(message)?.[1];
  if (days) return `The dates span more than ${days} days: move “From” and “To” closer together.`;
  return message;
}

/** A field of the absence forms ("First day" = startDate, "Last day" = endDate, "Note"), or the whole form. */
export type AbsenceField = "startDate" | "endDate" | "note" | null;

/** An `addAbsence` error (lib/domain/absences.ts) as the absence forms show it: the field it is about and the message. */
export function absenceMessage(message: string): { field: AbsenceField; message: string } {
  if (/^end_date must not be before start_date/.test(message))
    return { field: "endDate", message: "Last day: pick a day on or after the first day." };
  if (/^start_date:/.test(message)) return { field: "startDate", message: "First day: pick a date." };
  if (/^end_date:/.test(message)) return { field: "endDate", message: "Last day: pick a date." };
  if (/one year at most/.test(message)) return { field: "endDate", message: "Last day: an absence can last one year at most." };
  if (/^note:/.test(message)) return { field: "note", message: "Note: use at most 200 characters." };
  return { field: null, message };
}

/**
 * A refused webhook URL (lib/domain/webhook-url.ts `webhookUrlProblem`, prefixed `url: ` by
 * lib/domain/webhooks.ts) as the "Endpoint URL" field shows it. `field` and `refusal` name the field
 * and what a private address means for other forms using the same address rule (calendar feeds).
 */
export function webhookUrlMessage(message: string, field = "Endpoint URL", refusal = "where webhooks are not sent"): string | null {
  const problem = /^url: (.*)$/s.exec(message)?.[1];
  if (problem === undefined) return null;
  if (/^must be an absolute/.test(problem)) return `${field}: enter a full address starting with https://.`;
  if (/^must use http/.test(problem)) return `${field}: use an address starting with https:// (or http://).`;
  if (/^must not contain credentials/.test(problem))
    return `${field}: remove the user name and password from the address${field === "Endpoint URL" ? "; deliveries are signed instead" : ""}.`;
  if (/^must be at most/.test(problem)) return `${field}: use an address of at most 2000 characters.`;
  const host = /^host (.+) does not resolve$/.exec(problem)?.[1];
  if (host) return `${field}: the host ${host} was not found. Check the spelling of the address.`;
  if (/^resolves to /.test(problem)) {
    const where = /\(([^)]*)\)/.exec(problem)?.[1];
    return `${field}: this address leads to a private or local network${where ? ` (${where})` : ""}, ${refusal}. Use an address reachable from the internet, or ask your operator to allow private addresses.`;
  }
  return `${field}: ${problem}.`;
}

/** One failed line of "Add several people" (lib/domain/bulk-invite.ts outcome) as a sentence. */
export function bulkLineMessage(line: number, email: string, error: string): string {
  if (/^Not an e-mail address/.test(error))
    return email
      ? `Line ${line}: “${email}” is not an e-mail address. Correct it (e.g. ada@example.com) and invite again.`
      : `Line ${line}: no e-mail address found. Add one (e.g. “Ada Lovelace, ada@example.com”) and invite again.`;
  return `Line ${line}: ${email || "this line"} was not invited: ${error.charAt(0).toLowerCase()}${error.slice(1)}${/[.!]$/.test(error) ? "" : "."}`;
}
