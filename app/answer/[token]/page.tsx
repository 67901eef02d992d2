import type { Metadata } from "next";
import { answerActivity } from "@/components/checkins/answer-activity";
import { AnswerForm } from "@/components/checkins/answer-form";
import { activityPrefillFor } from "@/lib/domain/activity-suggestions";
import { openAnswerLink } from "@/lib/domain/answer-links";
import { answerWithLinkAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Answer your check-in", robots: { index: false } };

/** The answer form behind an e-mailed, signed link (issue 9): no sign-in, one occurrence, until it closes. */
export default async function AnswerLinkPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ sent?: string }>;
}) {
  const { token } = await params;
  const { sent } = await searchParams;
  const view = await openAnswerLink(decodeURIComponent(token));
  // Activity pre-fill of this run (issue 48), for a report not sent yet.
  const prefill =
    view && !view.submitted && !sent
      ? await activityPrefillFor({ teamId: view.actor.teamId, userId: view.actor.userId, occurrenceId: view.occurrenceId })
      : null;
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <p className="mb-6 text-lg font-semibold text-brand-700">Team Check-in</p>
      {!view ? (
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="mb-2 text-xl font-semibold text-slate-900">This link no longer works</h1>
          <p className="text-slate-700">
            The check-in has closed, or the link is not valid. Sign in to the dashboard to see your check-ins.
          </p>
        </div>
      ) : sent || view.submitted ? (
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm" role="status">
          <h1 className="mb-2 text-xl font-semibold text-slate-900">Thanks, {view.memberName}!</h1>
          <p className="text-slate-700">
            Your report for {view.standupName} on {view.date} was sent.
          </p>
        </div>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="mb-1 text-xl font-semibold text-slate-900">{view.standupName}</h1>
          <p className="mb-5 text-sm text-slate-600">
            Your report for {view.date}, {view.memberName}
          </p>
          <AnswerForm
            action={answerWithLinkAction.bind(null, decodeURIComponent(token))}
            questions={view.questions}
            initial={{}}
            editing={false}
            allowAnonymous={false}
            cancelHref={null}
            activity={answerActivity(prefill, view.questions)}
          />
        </div>
      )}
    </main>
  );
}
