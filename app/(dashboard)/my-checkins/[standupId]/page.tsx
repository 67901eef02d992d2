import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AnswerForm } from "@/components/checkins/answer-form";
import { formatDate } from "@/components/format";
import { Card, PageHeader } from "@/components/ui/card";
import { formatOccurrenceDate } from "@/lib/domain/asking";
import { listMyCheckins } from "@/lib/domain/dashboard";
import { requireUser } from "../../load";
import { saveCheckinAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Answer check-in" };

/** Answer (or edit today's answers of) one of the caller's standups. */
export default async function AnswerPage({ params }: { params: Promise<{ standupId: string }> }) {
  const { standupId } = await params;
  const user = await requireUser();
  const checkin = (await listMyCheckins(user)).find((c) => c.standupId === Number(standupId));
  if (!checkin) notFound();
  const initial = Object.fromEntries((checkin.todayReport?.answers ?? []).map((a) => [a.questionId, a.text]));
  return (
    <>
      <PageHeader
        title={checkin.name}
        description={`${checkin.todayReport ? "Edit your report" : "Your report"} for ${checkin.todayReport || checkin.pendingOccurrences.length === 0 ? formatDate(checkin.today) : formatOccurrenceDate(checkin.pendingOccurrences[0].date)}${checkin.isAnonymous ? " · this standup is anonymous" : ""}`}
      />
      <Card>
        <AnswerForm
          action={saveCheckinAction.bind(null, { standupId: checkin.standupId, reportId: checkin.todayReport?.id ?? null })}
          questions={checkin.questions}
          initial={initial}
          editing={Boolean(checkin.todayReport)}
          allowAnonymous={checkin.allowAnonymousReports}
        />
      </Card>
    </>
  );
}
