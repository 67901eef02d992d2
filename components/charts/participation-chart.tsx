"use client";

import { PercentBars, PercentLine } from "@/components/charts/lazy";
import { compactRowClass, DataTable, Td } from "@/components/ui/table";

export type ParticipationPoint = {
  date: string;
  label: string;
  responded: number;
  expected: number;
  excused?: number;
  rate: number | null;
};

function percent(rate: number | null): number | null {
  return rate === null ? null : Math.round(rate * 100);
}

/** Data table twin of a chart (collapsed), so the numbers are readable without the graphic. */
function ChartDataTable({ caption, points }: { caption: string; points: ParticipationPoint[] }) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer font-medium text-brand-700">Show data as a table</summary>
      <DataTable
        caption={caption}
        columns={["Date", "Responded", "Expected", points.some((p) => p.excused !== undefined) && "Excused", "Rate"]}
        density="compact"
        wrapperClassName="mt-2 max-h-72 overflow-auto"
        testId="participation-table"
      >
        {points.map((p) => (
          <tr key={p.date} data-date={p.date} className={compactRowClass}>
            <Td density="compact">{p.label}</Td>
            <Td density="compact">{p.responded}</Td>
            <Td density="compact">{p.expected}</Td>
            {p.excused !== undefined && <Td density="compact">{p.excused}</Td>}
            <Td density="compact" last>
              {p.rate === null ? "—" : `${Math.round(p.rate * 100)}%`}
            </Td>
          </tr>
        ))}
      </DataTable>
    </details>
  );
}

/** A chart figure (bars or a line of participation percentages) with its title and data table. */
function ParticipationFigure({
  points,
  title,
  kind,
  testId,
}: {
  points: ParticipationPoint[];
  title: string;
  kind: "bars" | "line";
  testId: string;
}) {
  const data = points.map((p) => ({ label: p.label, percent: percent(p.rate), responded: p.responded, expected: p.expected }));
  return (
    <figure aria-label={title} data-testid={testId}>
      <div className="h-64 w-full">{kind === "bars" ? <PercentBars data={data} /> : <PercentLine data={data} />}</div>
      <figcaption className="sr-only">{title}</figcaption>
      <ChartDataTable caption={title} points={points} />
    </figure>
  );
}

/** Participation rate per occurrence as a bar chart (0–100 %), with a data table. */
export function ParticipationBarChart({ points, title }: { points: ParticipationPoint[]; title: string }) {
  return <ParticipationFigure points={points} title={title} kind="bars" testId="participation-chart" />;
}

/** Participation trend (one point per day) as a line chart, with a data table. */
export function ParticipationTrendChart({ points, title }: { points: ParticipationPoint[]; title: string }) {
  return <ParticipationFigure points={points} title={title} kind="line" testId="trend-chart" />;
}
