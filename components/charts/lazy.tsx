"use client";

import dynamic from "next/dynamic";
import type { ComponentType } from "react";
import type * as Drawings from "@/components/charts/recharts-inner";

function ChartPlaceholder() {
  return <div className="h-full w-full animate-pulse rounded bg-slate-100" aria-hidden="true" />;
}

/**
 * A recharts drawing of recharts-inner (`pick` chooses it), loaded lazily on the client only
 * (recharts stays out of the server render and the first bundle); a placeholder shows meanwhile.
 */
function lazyDrawing<P extends object>(pick: (drawings: typeof Drawings) => ComponentType<P>) {
  return dynamic(() => import("@/components/charts/recharts-inner").then(pick), { ssr: false, loading: ChartPlaceholder });
}

export const PercentBars = lazyDrawing((m) => m.PercentBars);
export const PercentLine = lazyDrawing((m) => m.PercentLine);
export const VoteBars = lazyDrawing((m) => m.VoteBars);
export const ShareBars = lazyDrawing((m) => m.ShareBars);
