"use client";

import { PercentBars, PercentLine } from "@/components/charts/lazy";

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
function DataTable({ caption, points }: { caption: string; points: ParticipationPoint[] }) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer font-medium text-brand-700">Show data as a table</summary>
      <div className="mt-2 max-h-72 overflow-auto">
        <table className="w-full text-left" data-testid="participation-table">
          <caption className="sr-only">{caption}</caption>
          <thead className="text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-3">
                Date
              </th>
              <th scope="col" className="py-1 pr-3">
                Responded
              </th>
              <th scope="col" className="py-1 pr-3">
                Expected
              </th>
              {points.some((p) => p.excused !== undefined) && (
                <th scope="col" className="py-1 pr-3">
                  Excused
                </th>
              )}
              <th scope="col" className="py-1">
                Rate
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.date} data-date={p.date} className="border-t border-slate-100">
                <td className="py-1 pr-3">{p.label}</td>
                <td className="py-1 pr-3">{p.responded}</td>
                <td className="py-1 pr-3">{p.expected}</td>
                {p.excused !== undefined && <td className="py-1 pr-3">{p.excused}</td>}
                <td className="py-1">{p.rate === null ? "—" : `${Math.round(p.rate * 100)}%`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** Participation rate per occurrence as a bar chart (0–100 %), with a data table. */
export function ParticipationBarChart({ points, title }: { points: ParticipationPoint[]; title: string }) {
  const data = points.map((p) => ({ label: p.label, percent: percent(p.rate) }));
  return (
    <figure aria-label={title} data-testid="participation-chart">
      <div className="h-64 w-full">
        <PercentBars data={data} />
      </div>
      <figcaption className="sr-only">{title}</figcaption>
      <DataTable caption={title} points={points} />
    </figure>
  );
}

/** Participation trend (one point per day) as a line chart, with a data table. */
export function ParticipationTrendChart({ points, title }: { points: ParticipationPoint[]; title: string }) {
  const data = points.map((p) => ({ label: p.label, percent: percent(p.rate) }));
  return (
    <figure aria-label={title} data-testid="trend-chart">
      <div className="h-64 w-full">
        <PercentLine data={data} />
      </div>
      <figcaption className="sr-only">{title}</figcaption>
      <DataTable caption={title} points={points} />
    </figure>
  );
}
