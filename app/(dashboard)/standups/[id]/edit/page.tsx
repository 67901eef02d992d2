import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { loadFormOptions } from "@/components/standups/form-options";
import { StandupForm } from "@/components/standups/standup-form";
import { Alert, Card, PageHeader } from "@/components/ui/card";
import { getSessionUser } from "@/lib/auth/session";
import { NotFoundError } from "@/lib/domain/errors";
import { getStandupForV1 } from "@/lib/domain/standup-admin";
import { canManageStandup } from "@/lib/domain/standup-state";
import { updateStandupAction } from "../../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Edit standup" };

/** Edit-standup page (creator or team admin). */
export default async function EditStandupPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: raw } = await params;
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) notFound();
  const user = await getSessionUser();
  if (!user) redirect("/sign-in");
  const standup = await getStandupForV1(user, id).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const options = await loadFormOptions(user);
  if (!canManageStandup(user, standup.owner.chat_id)) {
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
            questions: standup.questions.map((q) => ({ text: q.text, choices: q.answer_type === "multiple_choice" ? q.choices : [] })),
            days: standup.days,
            time: standup.time,
            timezone: standup.timezone,
            broadcastChannel: standup.broadcast_channel?.chat_id ?? "",
            memberSource: standup.sync_channel_members ? "sync" : "users",
            users: standup.members.map((m) => m.user.chat_id),
            syncChannel: standup.sync_channel?.chat_id ?? "",
            isAnonymous: standup.is_anonymous,
            isConfidential: standup.is_confidential,
          }}
        />
      </Card>
    </>
  );
}
