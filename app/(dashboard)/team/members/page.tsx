import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TimezoneSelect } from "@/components/people/timezone-select";
import { ActionForm } from "@/components/ui/action-form";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { Field, InputField, Select, SelectField, SelectOptions, Textarea } from "@/components/ui/form";
import { Td } from "@/components/ui/table";
import { TableCard } from "@/components/ui/table-card";
import { canManagePeople, ROLES } from "@/lib/domain/access";
import { listPeople } from "@/lib/domain/people";
import { emailConfigured } from "@/lib/mail/enqueue";
import { requireUser } from "../../load";
import { bulkInviteAction, changeRoleAction, inviteAction, resetLinkAction, setActiveAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Members" };

const STATUS_TONE = { active: "green", invited: "amber", deactivated: "red" } as const;

/** Team → Members (admins): invite, add from a list, change roles, deactivate / reactivate, reset links. */
export default async function MembersPage() {
  const user = await requireUser();
  if (!canManagePeople(user)) notFound();
  const people = await listPeople(user);
  const mail = emailConfigured();
  return (
    <>
      <PageHeader
        title="Members"
        description={`${people.filter((p) => p.status !== "deactivated").length} people in ${user.teamName}. ${mail ? "Invitations are e-mailed." : "E-mail is not configured: invitation links are shown once to copy."}`}
      />
      <div className="space-y-6">
        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Invite someone">
            <ActionForm action={inviteAction} submitLabel="Invite" pendingLabel="Inviting…" testId="invite-form">
              <InputField id="i-name" label="Name" name="name" required maxLength={100} />
              <InputField id="i-email" label="E-mail" name="email" type="email" required />
              <SelectField id="i-role" name="role" label="Role" options={ROLES} defaultValue="member" />
              <TimezoneSelect id="i-timezone" />
            </ActionForm>
          </Card>
          <Card title="Add several people">
            <ActionForm action={bulkInviteAction} submitLabel="Invite all" pendingLabel="Inviting…" testId="bulk-form">
              <Field
                id="b-list"
                label="One person per line"
                hint="Name, e-mail, timezone (optional) — or a CSV with a header row (name,email,timezone,role) — or bare e-mail addresses."
              >
                <Textarea
                  id="b-list"
                  name="list"
                  rows={6}
                  required
                  aria-describedby="b-list-hint"
                  placeholder={"Ada Lovelace, ada@example.com, Europe/London\nalan@example.com"}
                />
              </Field>
            </ActionForm>
          </Card>
        </div>
        <TableCard
          title="People"
          caption="People of the team"
          columns={["Name", "Status", "Role", "Timezone", "Actions"]}
          className="min-w-[48rem] text-sm"
          wrapperClassName="overflow-x-auto"
          rows={people}
          row={(p) => (
            <tr key={p.id} data-testid="person-row" data-email={p.email} className="align-top">
              <Td>
                <span className="font-medium">{p.realname}</span>
                <span className="block text-xs text-slate-600">{p.email}</span>
              </Td>
              <Td>
                <Badge tone={STATUS_TONE[p.status]}>{p.status}</Badge>
              </Td>
              <Td>
                <ActionForm
                  action={changeRoleAction}
                  submitLabel="Save role"
                  submitAriaLabel={`Save role of ${p.realname}`}
                  variant="secondary"
                  className="flex flex-wrap items-center gap-2"
                >
                  <input type="hidden" name="userId" value={p.id} />
                  <label htmlFor={`role-${p.id}`} className="sr-only">
                    Role of {p.realname}
                  </label>
                  <Select id={`role-${p.id}`} name="role" defaultValue={p.role} className="w-32">
                    <SelectOptions options={ROLES} />
                  </Select>
                </ActionForm>
              </Td>
              <Td>{p.timezone}</Td>
              <Td last>
                <div className="flex flex-wrap gap-2">
                  {p.id !== user.userId && (
                    <ActionForm
                      action={setActiveAction}
                      submitLabel={p.status === "deactivated" ? `Reactivate` : `Deactivate`}
                      variant={p.status === "deactivated" ? "secondary" : "danger"}
                      className="space-y-2"
                      submitAriaLabel={`${p.status === "deactivated" ? "Reactivate" : "Deactivate"} ${p.realname}`}
                      confirm={
                        p.status === "deactivated"
                          ? undefined
                          : `Deactivate ${p.realname}? Their API keys are revoked, their sessions end and they are removed from every standup. Their history stays.`
                      }
                    >
                      <input type="hidden" name="userId" value={p.id} />
                      <input type="hidden" name="active" value={p.status === "deactivated" ? "true" : "false"} />
                    </ActionForm>
                  )}
                  {p.status !== "deactivated" && (
                    <ActionForm
                      action={resetLinkAction}
                      submitLabel="Reset link"
                      submitAriaLabel={`Password-reset link for ${p.realname}`}
                      variant="ghost"
                      className="space-y-2"
                    >
                      <input type="hidden" name="userId" value={p.id} />
                      <input type="hidden" name="email" value={p.email} />
                    </ActionForm>
                  )}
                </div>
              </Td>
            </tr>
          )}
        />
      </div>
    </>
  );
}
