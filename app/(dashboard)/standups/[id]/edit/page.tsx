import type { Metadata } from "next";
import { loadFormOptions } from "@/components/standups/form-options";
import { StandupForm } from "@/components/standups/standup-form";
import { Alert, Card, PageHeader } from "@/components/ui/card";
import { listBlockerQuestionIds } from "@/lib/domain/blockers";
import { QUESTION_TYPES, type QuestionType } from "@/lib/domain/question-types";
import { updateStandupAction } from "../../actions";
import { loadStandupPage } from "../load-standup";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Edit standup" };

/** Edit-standup page (creator or team admin). */
export default async function EditStandupPage({ params }: { params: Promise<{ id: string }> }) {
  const { id, user, standup, manage } = await loadStandupPage(params);
  const [options, blockerIds] = await Promise.all([loadFormOptions(user), listBlockerQuestionIds(user, id)]);
  if (!manage) {
    return <Alert>Only the creator of this standup or a team admin can edit it.</Alert>;
  }
  return (
    <>
      <PageHeader title={`Edit ${standup.name}`} />
      <Card>
        <StandupForm
          action={updateStandupAction.bind(null, id)}
          submitLabel="Save changes"
          cancelHref={`/standups/${id}`}
          {...options}
          initial={{
            name: standup.name,
            questions: standup.questions.map((q) => ({
              text: q.text,
              answerType: (QUESTION_TYPES as readonly string[]).includes(q.answer_type) ? (q.answer_type as QuestionType) : "text",
              choices: q.answer_type === "multiple_choice" || q.answer_type === "multi_select" ? q.choices : [],
              optional: q.optional,
              scale: q.answer_type === "rating" ? { min: q.scale_min ?? 1, max: q.scale_max ?? 5, labels: q.scale_labels } : null,
              isBlocker: blockerIds.includes(q.id),
            })),
            days: standup.days,
            time: standup.time,
            timezone: standup.timezone,
            broadcastChannel: standup.broadcast_channel?.chat_id ?? "",
            memberSource: standup.sync_channel_members ? "sync" : "users",
            users: standup.members.map((m) => m.user.chat_id),
            syncChannel: standup.sync_channel?.chat_id ?? "",
            isAnonymous: standup.is_anonymous,
            allowAnonymousReports: standup.allow_anonymous_reports,
            personalised: standup.personalised,
            isConfidential: standup.is_confidential,
            askingMode: standup.wait_time === null ? "manual" : "auto",
            waitTime: String(standup.wait_time ?? 0),
            reminderCount: String(standup.reminder_count),
            reminderAfterMinutes: String(standup.reminder_after_minutes),
            responseWindowMinutes: standup.response_window_minutes === null ? "" : String(standup.response_window_minutes),
            lateAnswerDays: String(standup.late_answer_days),
          }}
        />
      </Card>
    </>
  );
}
