import type { Metadata } from "next";
import { loadFormOptions } from "@/components/standups/form-options";
import { StandupForm } from "@/components/standups/standup-form";
import { TemplateGallery } from "@/components/standups/template-gallery";
import { Card, PageHeader } from "@/components/ui/card";
import { WORK_DAYS } from "@/lib/domain/constants";
import { findStandupTemplate, STANDUP_TEMPLATES } from "@/lib/domain/standup-templates";
import { requireUser } from "../../load";
import { createStandupAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New standup" };

/**
 * Create-standup page: the template gallery (`?template=<id>`, lib/domain/standup-templates.ts)
 * pre-fills the form's name, questions, days and time; without one, the three default questions.
 */
export default async function NewStandupPage({ searchParams }: { searchParams: Promise<{ template?: string | string[] }> }) {
  const user = await requireUser();
  const options = await loadFormOptions(user);
  const { template: param } = await searchParams;
  const template = findStandupTemplate(typeof param === "string" ? param : null);
  return (
    <>
      <PageHeader
        title="New standup"
        description="Members are asked the questions on the chosen days; reports go to the broadcast channel."
      />
      <TemplateGallery templates={STANDUP_TEMPLATES} selected={template?.id ?? null} />
      <Card>
        <StandupForm
          // A new template gives the form new initial values (its state is kept per key).
          key={template?.id ?? "blank"}
          action={createStandupAction}
          submitLabel="Create standup"
          cancelHref="/standups"
          {...options}
          initial={{
            name: template?.name ?? "",
            questions: template
              ? template.questions.map((q) => ({
                  text: q.text,
                  answerType: q.answerType ?? "text",
                  choices: q.choices ?? [],
                  optional: q.optional ?? false,
                  scale: q.scale ? { min: q.scale.min ?? 1, max: q.scale.max ?? 5, labels: q.scale.labels ?? [] } : null,
                  isBlocker: q.isBlocker ?? false,
                }))
              : [
                  { text: "What did you do since the last standup?", choices: [], isBlocker: false },
                  { text: "What will you do today?", choices: [], isBlocker: false },
                  { text: "Anything blocking your progress?", choices: [], isBlocker: true },
                ],
            days: template ? [...template.days] : [...WORK_DAYS],
            time: template?.time ?? "09:30",
            timezone: user.timezone,
            broadcastChannel: "",
            memberSource: "users",
            users: [user.userChatId],
            syncChannel: "",
            isAnonymous: false,
            allowAnonymousReports: false,
            personalised: false,
            isConfidential: false,
            askingMode: "auto",
            waitTime: "0",
            reminderCount: "1",
            reminderAfterMinutes: "60",
            responseWindowMinutes: "",
            lateAnswerDays: "7",
          }}
        />
      </Card>
    </>
  );
}
