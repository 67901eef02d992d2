import { formatDateTime } from "@/components/format";
import { Badge, EmptyState } from "@/components/ui/card";
import { DataTable, Td } from "@/components/ui/table";
import { formatOccurrenceDate } from "@/lib/domain/asking";
import type { OccurrenceMemberStatus, OccurrenceStatus } from "@/lib/domain/occurrence-status";

/** The badge and detail line of one member's state; instants shown in `timezone`. */
function StateCell({ member, timezone }: { member: OccurrenceMemberStatus; timezone: string }) {
  switch (member.state) {
    case "answered":
      return (
        <>
          <Badge tone="green">Answered</Badge> <span className="text-slate-600">{formatDateTime(member.answeredAt, timezone)}</span>
        </>
      );
    case "excused":
      if (member.excusedByCalendar) return <Badge>Excused (calendar)</Badge>;
      return <Badge>{member.excused === "out_of_office" ? "Excused (out of office)" : "Excused (vacation)"}</Badge>;
    case "missed":
      return <Badge tone="red">Missed</Badge>;
    case "reminded":
      return (
        <>
          <Badge tone="amber">Reminded</Badge>{" "}
          <span className="text-slate-600">
            {formatDateTime(member.lastRemindedAt, timezone)}
            {member.reminders > 1 ? ` (${member.reminders} reminders)` : ""}
          </span>
        </>
      );
    default:
      return (
        <>
          <Badge tone="amber">Pending</Badge>{" "}
          <span className="text-slate-600">
            {member.askedAt ? `asked ${formatDateTime(member.askedAt, timezone)}` : `due ${formatDateTime(member.dueAt, timezone)}`}
          </span>
        </>
      );
  }
}

const TALLY_ORDER = ["excused", "missed", "reminded", "pending"] as const;

/** "3 of 5 answered · 1 excused · 1 pending": a run's answers at a glance (what a manager reads first). */
function tally(members: OccurrenceMemberStatus[]): string {
  const count = (state: OccurrenceMemberStatus["state"]) => members.filter((m) => m.state === state).length;
  const rest = TALLY_ORDER.map((state) => [state, count(state)] as const).filter(([, n]) => n > 0);
  return [`${count("answered")} of ${members.length} answered`, ...rest.map(([state, n]) => `${n} ${state}`)].join(" · ");
}

/**
 * The latest occurrences of a standup, each as a table of its members and their state (answered /
 * pending with due time / reminded with when / excused / missed) under a one-line tally, times in
 * the viewer's `timezone`.
 */
export function OccurrenceStates({ occurrences, timezone }: { occurrences: OccurrenceStatus[]; timezone: string }) {
  if (occurrences.length === 0) return <EmptyState title="No occurrences yet">Members appear here once the standup has run.</EmptyState>;
  return (
    <div className="space-y-4">
      {occurrences.map((o) => (
        <section key={o.occurrenceId} aria-label={`Occurrence of ${formatOccurrenceDate(o.date)}`} data-testid="occurrence-states">
          <h3 className="mb-2 text-sm font-semibold">
            {formatOccurrenceDate(o.date)}
            {o.trigger === "manual" && <span className="font-normal text-slate-600"> · started by hand</span>}
            {o.closedAt && <span className="font-normal text-slate-600"> · closed</span>}
          </h3>
          {o.members.length > 0 && (
            <p className="mb-2 text-sm text-slate-700" data-testid="occurrence-tally">
              {tally(o.members)}
            </p>
          )}
          {o.members.length === 0 ? (
            <p className="text-sm text-slate-600">Nobody was asked.</p>
          ) : (
            <DataTable caption={`Members of ${formatOccurrenceDate(o.date)}`} columns={["Member", "State"]} className="text-sm">
              {o.members.map((m) => (
                <tr key={m.userId} data-testid="occurrence-member">
                  <Td>{m.name}</Td>
                  <Td last>
                    <StateCell member={m} timezone={timezone} />
                  </Td>
                </tr>
              ))}
            </DataTable>
          )}
        </section>
      ))}
    </div>
  );
}
