import { Alert } from "@/components/ui/card";
import { formatOccurrenceDate } from "@/lib/domain/asking";
import type { SubmissionPreview } from "@/lib/domain/occurrence-resolution";

/** The sentence the answer page shows before the person writes: which run the answer completes (issue 41). */
export function answerTargetText(preview: SubmissionPreview): string {
  switch (preview.rule) {
    case "pending":
      return `This answer completes the run of ${formatOccurrenceDate(preview.date)}${preview.late ? " (a late answer)" : ""}.`;
    case "today":
      return preview.answered
        ? `You already answered today’s run (${formatOccurrenceDate(preview.date)}): sending again edits that report.`
        : `This answer completes today’s run (${formatOccurrenceDate(preview.date)}).`;
    case "adhoc":
      return "This standup has no run today: your answer is an ad-hoc report. It completes no run and counts in no participation figure.";
    case "manual":
      return preview.answered
        ? "You already answered today: sending again edits that report."
        : "This standup runs only when started, and nobody started it today: your answer opens today’s run, which counts you only.";
  }
}

/** `answerTargetText` as an info box (test id `answer-target`). */
export function AnswerTarget({ preview }: { preview: SubmissionPreview }) {
  return (
    <Alert tone="info">
      <span data-testid="answer-target">{answerTargetText(preview)}</span>
    </Alert>
  );
}
