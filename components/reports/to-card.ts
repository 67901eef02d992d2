import type { ReportCardData } from "@/components/reports/report-card";
import type { ReportView } from "@/lib/domain/reports";

/** Maps a domain ReportView to the card data; the author name is dropped for anonymous reports. */
export function toReportCard(r: ReportView, names: Map<string, string>): ReportCardData {
  const anonymous = r.is_anonymous || r.checkin.is_anonymous;
  return {
    id: r.id,
    standupId: r.checkin_id,
    standupName: r.checkin.name,
    author: anonymous ? null : (names.get(r.user.chat_id) ?? r.user.chat_id),
    postedAt: r.submitted_at.toISOString(),
    anonymous,
    confidential: r.checkin.is_confidential,
    answers: (r.answers ?? []).map((a) => ({ id: a.id, question: a.question.text, answer: a.text })),
  };
}
