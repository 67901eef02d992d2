import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { answerActivity } from "@/components/checkins/answer-activity";
import { AnswerForm } from "@/components/checkins/answer-form";
import { AnswerTarget } from "@/components/checkins/answer-target";
import { formatDate } from "@/components/format";
import { Card, PageHeader } from "@/components/ui/card";
import { myActivityPrefill } from "@/lib/domain/activity-suggestions";
import { formatOccurrenceDate } from "@/lib/domain/asking";
import { listMyCheckins } from "@/lib/domain/dashboard";
import { previewMyAnswer } from "@/lib/domain/occurrence-resolution";
import { requireUser } from "../../load";
import { saveCheckinAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Answer check-in" };

/**
 * Answer (or edit today's answers of) one of the caller's standups. Before the form, the page says
 * which run the answer completes: the oldest open one, today's, or none (an ad-hoc report).
 */
export default async function AnswerPage({ params }: { params: Promise<{ standupId: string }> }) {
  const { standupId } = await params;
  const user = await requireUser();
  const checkin = (await listMyCheckins(user)).find((c) => c.standupId === Number(standupId));
  if (!checkin) notFound();
  const preview = checkin.todayReport ? null : await previewMyAnswer(user, checkin.standupId);
  const forDate = preview?.rule === "pending" ? formatOccurrenceDate(preview.date) : formatDate(checkin.today);
  // Activity pre-fill (issue 48): only for a new answer, never over a report being edited.
  const activity = checkin.todayReport
    ? null
    : answerActivity(await myActivityPrefill(user, { standupId: checkin.standupId }), checkin.questions);
  const initial = Object.fromEntries((checkin.todayReport?.answers ?? []).map((a) => [a.questionId, a.text]));
  return (
    <>
      <PageHeader
        title={checkin.name}
        description={`${checkin.todayReport ? "Edit your report" : preview?.rule === "adhoc" ? "Ad-hoc report" : "Your report"} for ${forDate}${checkin.isAnonymous ? " · this standup is anonymous" : ""}`}
      />
      {preview && (
        <div className="mb-4">
          <AnswerTarget preview={preview} />
        </div>
      )}
      <Card>
        <AnswerForm
          action={saveCheckinAction.bind(null, { standupId: checkin.standupId, reportId: checkin.todayReport?.id ?? null })}
          questions={checkin.questions}
          initial={initial}
          editing={Boolean(checkin.todayReport)}
          allowAnonymous={checkin.allowAnonymousReports}
          activity={activity}
        />
      </Card>
    </>
  );
}
