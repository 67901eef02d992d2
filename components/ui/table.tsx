import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** `comfortable`: page tables (rows divided by lines); `compact`: small tables inside a card or under a chart. */
export type TableDensity = "comfortable" | "compact";

/** A column heading: its label, or a key and a label (e.g. a visually hidden one); `false` leaves the column out. */
export type TableColumn = string | { key: string; label: ReactNode } | false | null | undefined;

/** Row class of a compact table (comfortable tables divide their rows in the body instead). */
export const compactRowClass = "border-t border-slate-100";

/** Class of a header or body cell; every cell but the last of its row keeps a gap on its right. */
export function cellClass(density: TableDensity = "comfortable", last = false, className?: string): string {
  return cn(density === "compact" ? "py-1" : "py-2", !last && "pr-3", className);
}

/** Body cell with the table's padding; `last` for the row's last cell. */
export function Td({ density, last, className, ...props }: ComponentProps<"td"> & { density?: TableDensity; last?: boolean }) {
  return <td className={cellClass(density, last, className)} {...props} />;
}

/**
 * Data table: a screen-reader caption, one header row built from the column labels (`scope="col"`),
 * and the caller's body rows. `wrapperClassName` wraps it in a scrolling container.
 */
export function DataTable({
  caption,
  columns,
  children,
  density = "comfortable",
  className,
  wrapperClassName,
  testId,
}: {
  caption: ReactNode;
  columns: TableColumn[];
  children: ReactNode;
  density?: TableDensity;
  className?: string;
  wrapperClassName?: string;
  testId?: string;
}) {
  const headings = columns.filter((c): c is Exclude<TableColumn, false | null | undefined> => Boolean(c));
  const comfortable = density === "comfortable";
  const table = (
    <table className={cn("w-full text-left", className)} data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead className={cn(comfortable && "border-b border-slate-200", "text-xs uppercase text-slate-600")}>
        <tr>
          {headings.map((c, i) => (
            <th key={typeof c === "string" ? c : c.key} scope="col" className={cellClass(density, i === headings.length - 1)}>
              {typeof c === "string" ? c : c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={comfortable ? "divide-y divide-slate-100" : undefined}>{children}</tbody>
    </table>
  );
  // `relative`: visually hidden (absolutely positioned) labels inside stay in the scroll box
  // instead of widening the page on phones.
  return wrapperClassName ? <div className={cn("relative", wrapperClassName)}>{table}</div> : table;
}
