import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { formatDate } from "@/components/format";
import { AbsenceForm } from "@/components/team/absence-form";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { getSessionUser } from "@/lib/auth/session";
import { listTeamMembers } from "@/lib/domain/absences";
import { addAbsenceAction, removeAbsenceAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Team" };

/** Team: members with role, timezone and upcoming absences; admins add and remove absences. */
export default async function TeamPage() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in");
  const members = await listTeamMembers(user);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <PageHeader
        title="Team"
        description={`${members.length} members of ${user.teamName}. Absent members are excluded from participation.`}
      />
      <div className="space-y-6">
        {user.isAdmin && (
          <Card title="Add a vacation or out-of-office range">
            <AbsenceForm action={addAbsenceAction} members={members.map((m) => ({ id: m.id, name: m.realname }))} today={today} />
          </Card>
        )}
        <Card title="Members">
          {members.length === 0 ? (
            <EmptyState title="No members" />
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full min-w-[40rem] text-left text-sm">
                <caption className="sr-only">Team members</caption>
                <thead className="border-b border-slate-200 text-xs uppercase text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      Name
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Role
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Timezone
                    </th>
                    <th scope="col" className="py-2">
                      Upcoming absences
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {members.map((m) => (
                    <tr key={m.id} data-testid="member-row" className="align-top">
                      <td className="py-2 pr-3">
                        <span className="font-medium">{m.realname}</span>
                        <span className="block text-xs text-slate-600">{m.email}</span>
                      </td>
                      <td className="py-2 pr-3">
                        {m.title ?? "—"} {m.isAdmin && <Badge tone="brand">Admin</Badge>}
                      </td>
                      <td className="py-2 pr-3">{m.timezone}</td>
                      <td className="py-2">
                        {m.absences.length === 0 ? (
                          <span className="text-slate-600">None</span>
                        ) : (
                          <ul className="space-y-1">
                            {m.absences.map((a) => (
                              <li key={a.id} className="flex flex-wrap items-center gap-2" data-testid="absence">
                                <Badge tone="amber">{a.kind === "vacation" ? "Vacation" : "Out of office"}</Badge>
                                <span>
                                  {formatDate(a.startDate)} – {formatDate(a.endDate)}
                                  {a.note && <span className="text-slate-600"> · {a.note}</span>}
                                </span>
                                {user.isAdmin && (
                                  <form action={removeAbsenceAction}>
                                    <input type="hidden" name="absenceId" value={a.id} />
                                    <Button
                                      type="submit"
                                      variant="ghost"
                                      className="min-h-8 px-2 py-1"
                                      aria-label={`Remove absence of ${m.realname} from ${formatDate(a.startDate)} to ${formatDate(a.endDate)}`}
                                    >
                                      Remove
                                    </Button>
                                  </form>
                                )}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
