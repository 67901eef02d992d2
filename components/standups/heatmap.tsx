import { formatShortDate } from "@/components/format";
import type { Heatmap, HeatmapCell } from "@/lib/domain/dashboard";

const CELL: Record<HeatmapCell, { label: string; className: string; symbol: string }> = {
  reported: { label: "Reported", className: "bg-green-600 text-white", symbol: "✓" },
  missed: { label: "Missed", className: "bg-red-100 text-red-900", symbol: "✗" },
  excused: {
    label: "Excused (vacation / out of office)",
    className:
      "bg-amber-200 text-amber-950 bg-[repeating-linear-gradient(45deg,transparent,transparent_3px,rgba(0,0,0,0.08)_3px,rgba(0,0,0,0.08)_6px)]",
    symbol: "V",
  },
  not_asked: { label: "Not asked", className: "bg-slate-100 text-slate-600", symbol: "·" },
  no_run: { label: "No run", className: "bg-white text-slate-400", symbol: "" },
};

/**
 * Member × date participation grid; excused days get their own colour, pattern and letter. Cells
 * carry `data-status` and the `heatmap-cell` class (styles in app/globals.css); `CELL`'s classes
 * style the legend and must match those styles.
 */
export function HeatmapGrid({ heatmap }: { heatmap: Heatmap }) {
  if (heatmap.dates.length === 0 || heatmap.members.length === 0) {
    return <p className="text-sm text-slate-600">No occurrences in this period yet.</p>;
  }
  return (
    <div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <div className="relative overflow-x-auto" role="region" aria-label="Participation heatmap" tabIndex={0}>
        <table className="border-separate border-spacing-0.5 text-xs" data-testid="heatmap">
          <caption className="sr-only">Participation by member and date</caption>
          <thead>
            <tr>
              <th scope="col" className="sticky left-0 bg-white pr-2 text-left font-medium text-slate-700">
                Member
              </th>
              {heatmap.dates.map((d) => (
                <th key={d} scope="col" className="whitespace-nowrap px-0.5 font-normal text-slate-700">
                  <span className="inline-block w-7 text-center">{formatShortDate(d).split(" ").slice(1, 2).join(" ")}</span>
                  <span className="sr-only">{formatShortDate(d)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {heatmap.members.map((m) => (
              <tr key={m.id}>
                <th scope="row" className="sticky left-0 whitespace-nowrap bg-white pr-2 text-left font-normal text-slate-800">
                  {m.realname}
                </th>
                {m.cells.map((c, i) => (
                  // one short class per cell, styled by data-status in app/globals.css; the row and column
                  // headers name the member and the date (issue 49: page bytes)
                  <td key={heatmap.dates[i]} data-status={c} className="heatmap-cell">
                    <span aria-hidden="true">{CELL[c].symbol}</span>
                    <span className="sr-only">{CELL[c].label}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="mt-3 flex flex-wrap gap-3 text-xs text-slate-700" aria-label="Legend">
        {(["reported", "missed", "excused", "not_asked"] as const).map((k) => (
          <li key={k} className="flex items-center gap-1">
            <span
              aria-hidden="true"
              className={`inline-flex h-4 w-4 items-center justify-center rounded text-[10px] font-semibold ${CELL[k].className}`}
            >
              {CELL[k].symbol}
            </span>
            {CELL[k].label}
          </li>
        ))}
      </ul>
    </div>
  );
}
