import type { Metadata } from "next";
import { formatDate } from "@/components/format";
import { AbsenceForm } from "@/components/team/absence-form";
import { AbsenceLine } from "@/components/team/absence-line";
import { LinkButton } from "@/components/ui/button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { Td } from "@/components/ui/table";
import { TableCard } from "@/components/ui/table-card";
import { listTeamMembers } from "@/lib/domain/absences";
import { requireUser } from "../load";
import { addAbsenceAction, removeAbsenceAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Team" };

/** Team: members with role, timezone and upcoming absences; admins add and remove absences. */
export default async function TeamPage() {
  const user = await requireUser();
  const members = await listTeamMembers(user);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <PageHeader
        title="Team"
        description={`${members.length} members of ${user.teamName}. Absent members are excluded from participation.`}
        actions={
          <>
            <LinkButton href="/team/holidays" variant="secondary">
              Team holidays
            </LinkButton>
            {user.isAdmin && (
              <LinkButton href="/team/import" variant="secondary">
                Import
              </LinkButton>
            )}
          </>
        }
      />
      <div className="space-y-6">
        {user.isAdmin && (
          <Card title="Add a vacation or out-of-office range">
            <AbsenceForm action={addAbsenceAction} members={members.map((m) => ({ id: m.id, name: m.realname }))} today={today} />
          </Card>
        )}
        <TableCard
          title="Members"
          empty="No members"
          caption="Team members"
          columns={["Name", "Role", "Timezone", "Upcoming absences"]}
          className="min-w-[40rem] text-sm"
          wrapperClassName="overflow-x-auto"
          rows={members}
          row={(m) => (
            <tr key={m.id} data-testid="member-row" className="align-top">
              <Td>
                <span className="font-medium">{m.realname}</span>
                <span className="block text-xs text-slate-600">{m.email}</span>
              </Td>
              <Td>
                {m.title ?? "—"} {m.isAdmin && <Badge tone="brand">Admin</Badge>}
              </Td>
              <Td>{m.timezone}</Td>
              <Td last>
                {m.absences.length === 0 ? (
                  <span className="text-slate-600">None</span>
                ) : (
                  <ul className="space-y-1">
                    {m.absences.map((a) => (
                      <AbsenceLine
                        key={a.id}
                        absence={a}
                        className="flex flex-wrap items-center gap-2"
                        testId="absence"
                        remove={
                          user.isAdmin
                            ? {
                                action: removeAbsenceAction,
                                label: `Remove absence of ${m.realname} from ${formatDate(a.startDate)} to ${formatDate(a.endDate)}`,
                              }
                            : undefined
                        }
                      />
                    ))}
                  </ul>
                )}
              </Td>
            </tr>
          )}
        />
      </div>
    </>
  );
}
