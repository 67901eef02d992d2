"use client";

/**
 * The recharts drawings themselves. Loaded lazily (next/dynamic, client only) by the chart
 * wrappers so recharts is not part of any page's first-load JavaScript.
 */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";

/** `percent` null: nothing ran (drawn as a gap, never interpolated); counts feed the tooltip. */
export type PercentDatum = { label: string; percent: number | null; responded?: number; expected?: number };
export type VotesDatum = { text: string; votes: number };

const TICK = { fontSize: 12, fill: "#334155" };

/** Participation percentages (0–100) per label, drawn as bars or as a line on the same grid and axes. */
function PercentChart({ data, kind }: { data: PercentDatum[]; kind: "bars" | "line" }) {
  const Chart = kind === "bars" ? BarChart : LineChart;
  return (
    <Chart data={data} responsive style={{ width: "100%", height: "100%" }} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="label" tick={TICK} interval="preserveStartEnd" />
      <YAxis
        domain={[0, 100]}
        tick={TICK}
        unit="%"
        label={{ value: "Answered", angle: -90, position: "insideLeft", offset: 24, fontSize: 12, fill: "#334155" }}
      />
      <Tooltip
        formatter={(v, _name, item) => {
          const d = item.payload as PercentDatum;
          if (v === null || v === undefined) return ["nothing ran", "Participation"];
          return [d.expected !== undefined ? `${v}% (${d.responded} of ${d.expected})` : `${v}%`, "Participation"];
        }}
      />
      {kind === "bars" ? (
        <Bar dataKey="percent" name="Participation" fill="#4338ca" radius={[3, 3, 0, 0]} maxBarSize={48} isAnimationActive={false} />
      ) : (
        <Line
          type="linear"
          dataKey="percent"
          name="Participation"
          stroke="#4338ca"
          strokeWidth={2}
          dot={{ r: 2.5 }}
          connectNulls={false}
          isAnimationActive={false}
        />
      )}
    </Chart>
  );
}

/** Bar chart of percentages (0–100) per label. */
export function PercentBars({ data }: { data: PercentDatum[] }) {
  return <PercentChart data={data} kind="bars" />;
}

/** Line chart of percentages (0–100) per label. */
export function PercentLine({ data }: { data: PercentDatum[] }) {
  return <PercentChart data={data} kind="line" />;
}

/** Horizontal bar chart of votes per choice (or answers per category: `unit` names the counted thing). */
export function VoteBars({ data, unit = "Votes" }: { data: VotesDatum[]; unit?: string }) {
  return (
    <BarChart
      data={data}
      layout="vertical"
      responsive
      style={{ width: "100%", height: "100%" }}
      margin={{ top: 4, right: 16, bottom: 4, left: 8 }}
    >
      <CartesianGrid strokeDasharray="3 3" horizontal={false} />
      <XAxis type="number" allowDecimals={false} tick={TICK} />
      <YAxis type="category" dataKey="text" width={120} tick={TICK} />
      <Tooltip formatter={(v) => [v, unit]} />
      <Bar dataKey="votes" name={unit} fill="#4338ca" radius={[0, 3, 3, 0]} maxBarSize={32} isAnimationActive={false} />
    </BarChart>
  );
}

/** One week of a multiple-choice trend: each choice's share of the week's answers (0–100), null when nobody answered. */
export type ShareDatum = { label: string; total: number } & Record<string, number | string | null>;

/** Distinct, colour-blind-safe fills (Okabe–Ito), reused in order. */
const SHARE_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

/**
 * Stacked bars of each choice's share per week (100 % per answered week); a week nobody answered
 * stays empty, never interpolated. The tooltip gives the shares and the number of answers.
 */
export function ShareBars({ data, choices }: { data: ShareDatum[]; choices: string[] }) {
  return (
    <BarChart data={data} responsive style={{ width: "100%", height: "100%" }} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="label" tick={TICK} interval="preserveStartEnd" />
      <YAxis domain={[0, 100]} tick={TICK} unit="%" />
      <Tooltip
        formatter={(v, name) => [v === null || v === undefined ? "no answers" : `${v}%`, name]}
        labelFormatter={(label, items) => {
          const total = (items?.[0]?.payload as ShareDatum | undefined)?.total ?? 0;
          return `${label} · ${total} answer${total === 1 ? "" : "s"}`;
        }}
      />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      {choices.map((c, i) => (
        <Bar
          key={c}
          dataKey={c}
          name={c}
          stackId="share"
          fill={SHARE_COLOURS[i % SHARE_COLOURS.length]}
          maxBarSize={48}
          isAnimationActive={false}
        />
      ))}
    </BarChart>
  );
}
