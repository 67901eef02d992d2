"use client";

import dynamic from "next/dynamic";

function ChartPlaceholder() {
  return <div className="h-full w-full animate-pulse rounded bg-slate-100" aria-hidden="true" />;
}

/** Lazily loaded recharts drawings (client only; the page shows a placeholder meanwhile). */
export const PercentBars = dynamic(() => import("@/components/charts/recharts-inner").then((m) => m.PercentBars), {
  ssr: false,
  loading: ChartPlaceholder,
});
export const PercentLine = dynamic(() => import("@/components/charts/recharts-inner").then((m) => m.PercentLine), {
  ssr: false,
  loading: ChartPlaceholder,
});
export const VoteBars = dynamic(() => import("@/components/charts/recharts-inner").then((m) => m.VoteBars), {
  ssr: false,
  loading: ChartPlaceholder,
});
export const ShareBars = dynamic(() => import("@/components/charts/recharts-inner").then((m) => m.ShareBars), {
  ssr: false,
  loading: ChartPlaceholder,
});
