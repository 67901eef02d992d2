/**
 * Clustering quality measures for scripts/bench-categorize.ts: purity and the adjusted Rand index
 * (Hubert & Arabie 1985) of predicted clusters against reference labels. Both take two arrays of
 * the same length (one entry per item: its reference label, its predicted cluster).
 */

function contingency(truth: readonly string[], predicted: readonly string[]): Map<string, Map<string, number>> {
  const table = new Map<string, Map<string, number>>();
  truth.forEach((t, i) => {
    const row = table.get(predicted[i]) ?? new Map<string, number>();
    row.set(t, (row.get(t) ?? 0) + 1);
    table.set(predicted[i], row);
  });
  return table;
}

/** Share of items whose predicted cluster's majority label is their own label (0..1). */
export function purity(truth: readonly string[], predicted: readonly string[]): number {
  if (!truth.length) return Number.NaN;
  let agree = 0;
  for (const row of contingency(truth, predicted).values()) agree += Math.max(...row.values());
  return agree / truth.length;
}

const pairs = (n: number) => (n * (n - 1)) / 2;

/** Adjusted Rand index (-1..1; 1 identical partitions, ~0 chance agreement). */
export function adjustedRandIndex(truth: readonly string[], predicted: readonly string[]): number {
  const n = truth.length;
  const table = contingency(truth, predicted);
  let sumCells = 0;
  const labelTotals = new Map<string, number>();
  let sumRows = 0;
  for (const row of table.values()) {
    let rowTotal = 0;
    for (const [label, c] of row) {
      sumCells += pairs(c);
      rowTotal += c;
      labelTotals.set(label, (labelTotals.get(label) ?? 0) + c);
    }
    sumRows += pairs(rowTotal);
  }
  let sumCols = 0;
  for (const c of labelTotals.values()) sumCols += pairs(c);
  const expected = (sumRows * sumCols) / pairs(n);
  const max = (sumRows + sumCols) / 2;
  return max === expected ? 1 : (sumCells - expected) / (max - expected);
}
