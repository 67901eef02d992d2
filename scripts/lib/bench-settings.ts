/**
 * Settings of the bench:* scripts, read from their BENCH_* environment variables (docs/benchmarks.md).
 * Scripts read them here rather than through lib/env.ts: they are no settings of the service.
 */

/**
 * The number in environment variable `name`, or `fallback` when it is unset or empty.
 * @throws Error naming the variable when it is set to something other than a non-negative number
 *   (`Number("20k")` would otherwise run the bench with NaN).
 */
export function benchNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/**
 * Defaults for the scripts that call the API's route handlers in-process: an AUTH_SECRET (cursors
 * are signed with it) unless one is set, and a per-minute API quota of `perMinute` unless one is set,
 * far above what the bench sends, so the rate limiter keeps counting (its cost is part of the
 * figures) without ever answering 429.
 */
export function benchApiDefaults(secretLabel: string, perMinute: number): void {
  process.env.AUTH_SECRET ??= `${secretLabel}-secret-0123456789abcdef`;
  process.env.RATE_LIMIT_API_PER_MINUTE ??= String(perMinute);
}
