import type { Metadata } from "next";
import { loadFormOptions } from "@/components/standups/form-options";
import { StandupForm } from "@/components/standups/standup-form";
import { Card, PageHeader } from "@/components/ui/card";
import { WORK_DAYS } from "@/lib/domain/constants";
import { requireUser } from "../../load";
import { createStandupAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New standup" };

/** Create-standup page. */
export default async function NewStandupPage() {
  const user = await requireUser();
  const options = await loadFormOptions(user);
  return (
    <>
      <PageHeader
        title="New standup"
        description="Members are asked the questions on the chosen days; reports go to the broadcast channel."
      />
      <Card>
        <StandupForm
          action={createStandupAction}
          submitLabel="Create standup"
          cancelHref="/standups"
          {...options}
          initial={{
            name: "",
            questions: [
              { text: "What did you do since the last standup?", choices: [], isBlocker: false },
              { text: "What will you do today?", choices: [], isBlocker: false },
              { text: "Anything blocking your progress?", choices: [], isBlocker: true },
            ],
            days: [...WORK_DAYS],
            time: "09:30",
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
