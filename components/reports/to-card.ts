import type { ReportCardData } from "@/components/reports/report-card";
import { reportAuthor } from "@/lib/domain/access";
import type { ReportView } from "@/lib/domain/reports";

/** Maps a domain ReportView to the card data; the author is hidden by the one anonymity rule (`reportAuthor`). */
export function toReportCard(r: ReportView, names: Map<string, string>): ReportCardData {
  const author = reportAuthor(r, r.user.chat_id);
  return {
    id: r.id,
    standupId: r.checkin_id,
    standupName: r.checkin.name,
    author: author === null ? null : (names.get(author) ?? author),
    postedAt: r.submitted_at.toISOString(),
    anonymous: author === null,
    confidential: r.checkin.is_confidential,
    answers: (r.answers ?? []).map((a) => ({ id: a.id, question: a.question.text, answer: a.text })),
  };
}
