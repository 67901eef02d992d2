import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/ui/action-form";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Checkbox, InputField } from "@/components/ui/form";
import { canManagePeople } from "@/lib/domain/access";
import { listChannelsForAdmin } from "@/lib/domain/channel-admin";
import { listPeople } from "@/lib/domain/people";
import { requireUser } from "../../load";
import { archiveChannelAction, channelMembersAction, createChannelAction, renameChannelAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Manage channels" };

/** Team → Channels (admins): create, rename, archive built-in channels and set their members. */
export default async function ManageChannelsPage() {
  const user = await requireUser();
  if (!canManagePeople(user)) notFound();
  const [channels, people] = await Promise.all([listChannelsForAdmin(user), listPeople(user)]);
  const active = people.filter((p) => p.status !== "deactivated");
  return (
    <>
      <PageHeader title="Manage channels" description="Built-in channels standups broadcast to, and who is in them." />
      <div className="space-y-6">
        <Card title="New channel">
          <ActionForm
            action={createChannelAction}
            submitLabel="Create channel"
            className="flex flex-wrap items-end gap-3"
            testId="create-channel-form"
          >
            <InputField id="ch-name" label="Name" hint="e.g. team-updates" name="name" required maxLength={80} />
            <InputField id="ch-topic" label="Topic (optional)" name="topic" maxLength={200} />
          </ActionForm>
        </Card>
        {channels.length === 0 && <EmptyState title="No channels yet" />}
        {channels.map((c) => (
          <Card
            key={c.id}
            title={
              <span className="flex items-center gap-2">
                #{c.name} {c.archived && <Badge tone="amber">Archived</Badge>}
              </span>
            }
          >
            <div className="grid gap-4 lg:grid-cols-2" data-testid="channel-admin" data-name={c.name}>
              <div className="space-y-3">
                <ActionForm
                  action={renameChannelAction}
                  submitLabel="Rename"
                  submitAriaLabel={`Rename #${c.name}`}
                  variant="secondary"
                  className="flex flex-wrap items-end gap-2"
                >
                  <input type="hidden" name="channelId" value={c.id} />
                  <InputField id={`rn-${c.id}`} label="Name" name="name" defaultValue={c.name} required maxLength={80} />
                </ActionForm>
                <ActionForm
                  action={archiveChannelAction}
                  submitLabel={c.archived ? "Unarchive" : "Archive"}
                  submitAriaLabel={`${c.archived ? "Unarchive" : "Archive"} #${c.name}`}
                  variant={c.archived ? "secondary" : "danger"}
                  confirm={
                    c.archived
                      ? undefined
                      : `Archive #${c.name}? Its messages stay; standups broadcasting to it keep working until you change them.`
                  }
                >
                  <input type="hidden" name="channelId" value={c.id} />
                  <input type="hidden" name="archived" value={c.archived ? "false" : "true"} />
                </ActionForm>
              </div>
              <ActionForm
                action={channelMembersAction}
                submitLabel="Save members"
                submitAriaLabel={`Save members of #${c.name}`}
                variant="secondary"
              >
                <input type="hidden" name="channelId" value={c.id} />
                <fieldset>
                  <legend className="mb-2 text-sm font-medium text-slate-800">Members of #{c.name}</legend>
                  <div className="grid max-h-56 gap-2 overflow-y-auto rounded-md border border-slate-200 p-3 sm:grid-cols-2">
                    {active.map((p) => (
                      <Checkbox
                        key={p.id}
                        id={`cm-${c.id}-${p.id}`}
                        name="userIds"
                        value={p.id}
                        label={p.realname}
                        defaultChecked={c.memberIds.includes(p.id)}
                      />
                    ))}
                  </div>
                </fieldset>
              </ActionForm>
            </div>
          </Card>
        ))}
      </div>
    </>
  );
}
