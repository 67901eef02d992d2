"use client";

import { VoteBars } from "@/components/charts/lazy";

export type ChoiceResult = { text: string; votes: number; voters: string[] | null };

/** Votes per choice of one poll question as a horizontal bar chart (recharts loaded lazily). */
export function VotesChart({ choices, title, unit }: { choices: ChoiceResult[]; title: string; unit?: string }) {
  const height = Math.max(120, choices.length * 44 + 40);
  return (
    <figure aria-label={title} data-testid="votes-chart">
      <div className="w-full" style={{ height }}>
        <VoteBars data={choices.map((c) => ({ text: c.text, votes: c.votes }))} unit={unit} />
      </div>
      <figcaption className="sr-only">{title}</figcaption>
    </figure>
  );
}
