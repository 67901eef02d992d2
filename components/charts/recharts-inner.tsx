"use client";

/**
 * The recharts drawings themselves. Loaded lazily (next/dynamic, client only) by the chart
 * wrappers so recharts is not part of any page's first-load JavaScript.
 */
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";

export type PercentDatum = { label: string; percent: number | null };
export type VotesDatum = { text: string; votes: number };

/** Bar chart of percentages (0–100) per label. */
export function PercentBars({ data }: { data: PercentDatum[] }) {
  return (
    <BarChart data={data} responsive style={{ width: "100%", height: "100%" }} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#334155" }} interval="preserveStartEnd" />
      <YAxis domain={[0, 100]} tick={{ fontSize: 12, fill: "#334155" }} unit="%" />
      <Tooltip formatter={(v) => [`${v}%`, "Participation"]} />
      <Bar dataKey="percent" name="Participation" fill="#4338ca" radius={[3, 3, 0, 0]} maxBarSize={48} isAnimationActive={false} />
    </BarChart>
  );
}

/** Line chart of percentages (0–100) per label. */
export function PercentLine({ data }: { data: PercentDatum[] }) {
  return (
    <LineChart data={data} responsive style={{ width: "100%", height: "100%" }} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#334155" }} interval="preserveStartEnd" />
      <YAxis domain={[0, 100]} tick={{ fontSize: 12, fill: "#334155" }} unit="%" />
      <Tooltip formatter={(v) => [`${v}%`, "Participation"]} />
      <Line
        type="monotone"
        dataKey="percent"
        name="Participation"
        stroke="#4338ca"
        strokeWidth={2}
        dot={false}
        connectNulls
        isAnimationActive={false}
      />
    </LineChart>
  );
}

/** Horizontal bar chart of votes per choice. */
export function VoteBars({ data }: { data: VotesDatum[] }) {
  return (
    <BarChart
      data={data}
      layout="vertical"
      responsive
      style={{ width: "100%", height: "100%" }}
      margin={{ top: 4, right: 16, bottom: 4, left: 8 }}
    >
      <CartesianGrid strokeDasharray="3 3" horizontal={false} />
      <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12, fill: "#334155" }} />
      <YAxis type="category" dataKey="text" width={120} tick={{ fontSize: 12, fill: "#334155" }} />
      <Tooltip formatter={(v) => [v, "Votes"]} />
      <Bar dataKey="votes" name="Votes" fill="#4338ca" radius={[0, 3, 3, 0]} maxBarSize={32} isAnimationActive={false} />
    </BarChart>
  );
}
