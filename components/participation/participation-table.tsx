import Link from "next/link";
import type { ReactNode } from "react";
import { formatPercent } from "@/components/format";
import { DataTable, Td } from "@/components/ui/table";
import type { ParticipationBucket } from "@/lib/domain/member-participation";

/** One row: a linked name, the bucket's counts and rate, then `extra` cells. */
export type ParticipationRow = ParticipationBucket & { key: string | number; name: string; href: string; extra?: ReactNode[] };

/**
 * A participation table (per standup or per member): name, answered, missed, excused, rate, then
 * the `extraColumns`; scrolls inside its card on narrow screens.
 */
export function ParticipationTable({
  caption,
  nameLabel,
  rows,
  extraColumns = [],
  testId,
  wrapperClassName = "overflow-x-auto",
}: {
  caption: string;
  nameLabel: string;
  rows: ParticipationRow[];
  extraColumns?: string[];
  testId: string;
  wrapperClassName?: string;
}) {
  return (
    <DataTable
      caption={caption}
      columns={[nameLabel, "Answered", "Missed", "Excused", "Rate", ...extraColumns]}
      className="min-w-[30rem] text-sm"
      wrapperClassName={wrapperClassName}
      testId={testId}
    >
      {rows.map((r) => (
        <tr key={r.key}>
          <Td>
            <Link href={r.href} className="text-brand-700 underline">
              {r.name}
            </Link>
          </Td>
          <Td>{r.answered}</Td>
          <Td>{r.missed}</Td>
          <Td>{r.excused}</Td>
          <Td last={!r.extra?.length}>{formatPercent(r.rate)}</Td>
          {r.extra?.map((cell, i) => (
            <Td key={extraColumns[i] ?? i} last={i === (r.extra?.length ?? 0) - 1}>
              {cell}
            </Td>
          ))}
        </tr>
      ))}
    </DataTable>
  );
}
