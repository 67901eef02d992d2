import type { ParticipationPoint } from "@/components/charts/participation-chart";
import { formatShortDate } from "@/components/format";
import type { ParticipationBucket } from "@/lib/domain/member-participation";

/** Weekly buckets as chart points labelled "w/c Mon 16 Nov" (weeks where nothing ran keep rate null: a gap). */
export function weekChartPoints(weeks: Array<ParticipationBucket & { weekStart: string }>): ParticipationPoint[] {
  return weeks.map((w) => ({
    date: w.weekStart,
    label: `w/c ${formatShortDate(w.weekStart)}`,
    responded: w.answered,
    expected: w.expected,
    excused: w.excused,
    rate: w.rate,
  }));
}
