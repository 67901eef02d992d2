import type { ComponentProps, ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/table";

/**
 * A `Card` titled `title` holding a `DataTable` with one body row per item of `rows`, each
 * rendered by `row` (a `<tr>` with its key). With `empty` (an `EmptyState` title; `emptyDetail`
 * the line under it) an empty `rows` shows that empty state instead of the table. The remaining
 * props (caption, columns, classes, density, testId) are the table's.
 */
export function TableCard<T>({
  title,
  rows,
  row,
  empty,
  emptyDetail,
  ...table
}: {
  title: ReactNode;
  rows: readonly T[];
  row: (item: T) => ReactNode;
  empty?: string;
  emptyDetail?: ReactNode;
} & Omit<ComponentProps<typeof DataTable>, "children">) {
  return (
    <Card title={title} empty={rows.length === 0 && empty} emptyDetail={emptyDetail}>
      <DataTable {...table}>{rows.map(row)}</DataTable>
    </Card>
  );
}
