"use client";

import { ShareBars } from "@/components/charts/lazy";
import type { ShareDatum } from "@/components/charts/recharts-inner";

/** One week of a multiple-choice trend: answers per choice and in all. */
export type ChoiceTrendWeek = { label: string; counts: Record<string, number>; total: number };

/**
 * A multiple-choice, rating or multi-select answer trend (e.g. mood per week) as stacked shares per
 * week; the table that follows it on the page carries the same numbers.
 */
export function ChoiceTrendChart({
  title,
  answerType = "multiple_choice",
  choices,
  weeks,
}: {
  title: string;
  /** multiple_choice, rating (series: the scale's points) or multi_select (shares of picks). */
  answerType?: string;
  choices: string[];
  weeks: ChoiceTrendWeek[];
}) {
  const data: ShareDatum[] = weeks.map((w) => {
    const row: ShareDatum = { label: w.label, total: w.total };
    for (const c of choices) row[c] = w.total ? Math.round(((w.counts[c] ?? 0) / w.total) * 100) : null;
    return row;
  });
  return (
    // Named by its figcaption (no aria-label: that would make the figure a "label" match for
    // words in the question, e.g. getByLabel("To") on the date form above).
    <figure data-testid="choice-trend-chart" data-answer-type={answerType}>
      <div className="h-56 w-full">
        <ShareBars data={data} choices={choices} />
      </div>
      <figcaption className="sr-only">{title}</figcaption>
    </figure>
  );
}
