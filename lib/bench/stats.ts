/** Small timing helpers for scripts/bench-data.ts. */

/** Runs `fn` `warmup` times unmeasured, then `reps` times; returns the durations in ms. */
export async function timeIt(fn: () => Promise<unknown>, reps: number, warmup = 3): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** The q-quantile (0..1) of `values`, nearest-rank. */
export function quantile(values: number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const median = (v: number[]) => quantile(v, 0.5);
export const p95 = (v: number[]) => quantile(v, 0.95);

/** "12.34" with a fixed number of decimals, or "-" for NaN/undefined. */
export function ms(v: number | undefined, digits = 2): string {
  return v === undefined || Number.isNaN(v) ? "-" : v.toFixed(digits);
}

/** Prints a text table with left-aligned first column and right-aligned others. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}
