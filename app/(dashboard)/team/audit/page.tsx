import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { SelectField } from "@/components/ui/form";
import { DataTable, Td } from "@/components/ui/table";
import { canManagePeople } from "@/lib/domain/access";
import { AUDIT_ACTIONS, listAudit } from "@/lib/domain/audit";
import { AUDIT_ACTION_LABELS, describeAuditEntry } from "@/lib/domain/audit-sentences";
import { listPeople } from "@/lib/domain/people";
import { requireUser } from "../../load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

/** Team → Audit log (admins): every admin action, newest first, filterable by action and by who did it. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<{ action?: string; actor?: string; before?: string }> }) {
  const user = await requireUser();
  if (!canManagePeople(user)) notFound();
  const q = await searchParams;
  const action = (AUDIT_ACTIONS as readonly string[]).includes(q.action ?? "") ? q.action : undefined;
  const actorId = Number(q.actor) > 0 ? Number(q.actor) : undefined;
  const before = Number(q.before) > 0 ? Number(q.before) : undefined;
  const [{ items, nextBefore }, people] = await Promise.all([listAudit(user, { action, actorId, before }), listPeople(user)]);
  const names = new Map(people.map((p) => [p.id, p.realname]));
  const older = new URLSearchParams({
    ...(action ? { action } : {}),
    ...(actorId ? { actor: String(actorId) } : {}),
    ...(nextBefore ? { before: String(nextBefore) } : {}),
  });
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Invitations, role changes, deactivations, key revocations and channel changes of your team."
      />
      <Card>
        <form className="mb-4 flex flex-wrap items-end gap-3" method="get">
          <SelectField
            id="f-action"
            name="action"
            label="Action"
            options={[{ value: "", label: "All actions" }, ...AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] }))]}
            defaultValue={action ?? ""}
          />
          <SelectField
            id="f-actor"
            name="actor"
            label="Done by"
            options={[{ value: "", label: "Anyone" }, ...people.map((p) => ({ value: String(p.id), label: p.realname }))]}
            defaultValue={actorId ? String(actorId) : ""}
          />
          <Button type="submit" variant="secondary">
            Filter
          </Button>
        </form>
        {items.length === 0 ? (
          <EmptyState title="No entries">Nothing matches these filters yet.</EmptyState>
        ) : (
          <DataTable
            caption="Audit log entries"
            columns={["When (UTC)", "Who", "What happened"]}
            className="min-w-[48rem] text-sm"
            wrapperClassName="overflow-x-auto"
          >
            {items.map((e) => (
              <tr key={e.id} data-testid="audit-row" className="align-top">
                <Td className="whitespace-nowrap">{e.createdAt.toISOString().replace("T", " ").slice(0, 19)}</Td>
                <Td>{e.actor?.realname ?? "The server"}</Td>
                <Td last className="text-slate-800" data-testid="audit-sentence">
                  {describeAuditEntry(e, (userId) => names.get(userId))}
                </Td>
              </tr>
            ))}
          </DataTable>
        )}
        {nextBefore && (
          <p className="mt-4">
            <Link href={`/team/audit?${older.toString()}`} className="text-brand-700 underline">
              Older entries
            </Link>
          </p>
        )}
      </Card>
    </>
  );
}
