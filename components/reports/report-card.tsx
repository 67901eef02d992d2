import type { ReactNode } from "react";
import { formatDateTime } from "@/components/format";
import { Badge } from "@/components/ui/card";

/** A report as the dashboard shows it (serializable, also used by the client feed). */
export type ReportCardData = {
  id: number;
  standupId: number;
  standupName: string;
  /** Null when anonymous: the author is never sent to the page. */
  author: string | null;
  postedAt: string;
  anonymous: boolean;
  confidential: boolean;
  answers: Array<{ id: number; question: string; answer: string }>;
  /** Occurrence (run) the report answers, for grouping; null for reports without one. */
  occurrenceId?: number | null;
  /** Local date of the occurrence "YYYY-MM-DD". */
  date?: string;
  /** Answers changed after submission. */
  edited?: boolean;
  /** The viewer wrote it (may delete it). */
  own?: boolean;
};

/** One report with its answers; anonymous reports show no name. */
export function ReportCard({
  report,
  timezone,
  headingLevel = 3,
  actions,
}: {
  report: ReportCardData;
  timezone: string;
  headingLevel?: 2 | 3;
  actions?: ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="report-card"
      data-report-id={report.id}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <Heading className="font-semibold text-slate-900">
          {report.anonymous ? "Anonymous" : (report.author ?? "Unknown member")}
          <span className="font-normal text-slate-600"> in {report.standupName}</span>
        </Heading>
        <div className="flex items-center gap-2 text-xs text-slate-600">
          {report.anonymous && <Badge>Anonymous</Badge>}
          {report.confidential && <Badge>Confidential</Badge>}
          <time dateTime={report.postedAt}>{formatDateTime(report.postedAt, timezone)}</time>
          {report.edited && <span data-testid="edited">(edited)</span>}
        </div>
      </header>
      <dl className="mt-3 space-y-2 text-sm">
        {report.answers.map((a) => (
          <div key={a.id}>
            <dt className="font-medium text-slate-700">{a.question}</dt>
            <dd className="whitespace-pre-wrap break-words text-slate-900">{a.answer || "—"}</dd>
          </div>
        ))}
      </dl>
      {actions}
    </article>
  );
}
