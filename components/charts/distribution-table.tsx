import { DataTable, Td } from "@/components/ui/table";

/**
 * A distribution as a table with a proportional bar in each row (the chart and its numbers in
 * one accessible element): label, count, share.
 */
export function DistributionTable({
  caption,
  rows,
  unit,
}: {
  caption: string;
  rows: Array<{ label: string; count: number }>;
  unit: string;
}) {
  const total = rows.reduce((n, r) => n + r.count, 0);
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <DataTable
      caption={caption}
      columns={["Range", unit, "Share"]}
      density="compact"
      className="text-sm"
      wrapperClassName="overflow-x-auto"
    >
      {rows.map((r) => (
        <tr key={r.label} className="border-t border-slate-100">
          <Td density="compact" className="whitespace-nowrap">
            {r.label}
          </Td>
          <Td density="compact" className="w-full">
            <div className="flex items-center gap-2">
              <div
                className="h-3 rounded bg-brand-600"
                style={{ width: `${(r.count / max) * 100}%`, minWidth: r.count ? 2 : 0 }}
                aria-hidden="true"
              />
              <span>{r.count}</span>
            </div>
          </Td>
          <Td density="compact" last>
            {total ? `${Math.round((r.count / total) * 100)}%` : "—"}
          </Td>
        </tr>
      ))}
    </DataTable>
  );
}
