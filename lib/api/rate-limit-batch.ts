/**
 * Batched counting for the busiest rate limit (the per-API-key quota, lib/api/rate-limit.ts):
 * at most one database round trip per subject every `FLUSH_MS` while the subject is busy, instead
 * of one per request (issue 14: the upsert was a second round trip on every API request).
 *
 * How a count is decided, per (limiter, subject) of this process:
 * - The first request, and any request once the last synchronised count is older than `STALE_MS`
 *   or its window has ended, counts in the store at once (`limiter.consume(subject, 1 + pending)`)
 *   and is decided on the store's total, exactly as without batching.
 * - In between, a request is counted here (`pending`) and decided on the last total read from the
 *   store plus this process's pending and in-flight counts; a flush of the pending count is
 *   scheduled `FLUSH_MS` later (one `consume(subject, n)`), which also brings in what other
 *   instances counted meanwhile.
 *
 * So one process alone is exact, and across instances a subject can exceed its quota by what the
 * other instances admitted in the last `FLUSH_MS` + `STALE_MS` at most (tens of requests at the
 * default 600 per minute). Every counted request reaches the store; a flush that fails is retried
 * with the next one. `flushAll()` writes what is pending (before the process stops).
 */
import type { RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";

/** Delay (ms) between a request counted here and the flush of its count to the store. */
export const FLUSH_MS = 100;
/** After this long (ms) without a synchronised total, the next request counts in the store at once. */
export const STALE_MS = 1000;

/** Subjects remembered before ended windows are pruned. */
const MAX_SUBJECTS = 10_000;

/** What the store knows of one subject's window: `consumed` points, window end (epoch ms). */
export type WindowCount = { consumed: number; resetAt: number };

type Tally = {
  /** The store's total at the last synchronisation (includes what this process had flushed). */
  shared: number;
  /** End of the store's window (epoch ms). */
  resetAt: number;
  /** When `shared` was read (epoch ms). */
  syncedAt: number;
  /** Counted here, not yet sent. */
  pending: number;
  /** Sent in the flush under way. */
  inFlight: number;
  timer: ReturnType<typeof setTimeout> | null;
};

/**
 * A batched counter over one rate-limiter-flexible limiter. `consume` resolves with the subject's
 * count in the current window, this request included; it throws only what the store throws on a
 * synchronous count (the caller's fallback applies).
 */
export class BatchedCounter {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly limiter: RateLimiterAbstract,
    private readonly windowMs: number,
  ) {}

  /**
   * Counts one request of `subject` here, synchronously, when the last synchronised total is fresh
   * (see the module comment); undefined when the store must be asked (then call `consume`, which
   * counts it). The common case of a busy key thus costs no promise.
   */
  consumeNow(subject: string): WindowCount | undefined {
    const now = Date.now();
    const t = this.tallies.get(subject);
    if (!t || now >= t.resetAt || now - t.syncedAt >= STALE_MS) return undefined;
    t.pending++;
    this.schedule(subject, t);
    return { consumed: t.shared + t.inFlight + t.pending, resetAt: t.resetAt };
  }

  /** Counts one request of `subject`; see the module comment for when the store is asked. */
  async consume(subject: string): Promise<WindowCount> {
    const counted = this.consumeNow(subject);
    if (counted) return counted;
    const now = Date.now();
    const t = this.tallies.get(subject);
    const pending = t ? t.pending : 0;
    if (t) t.pending = 0;
    else if (this.tallies.size >= MAX_SUBJECTS) this.prune(now);
    const res = await this.store(subject, pending + 1);
    const tally = this.tallies.get(subject) ?? this.fresh(subject);
    this.sync(tally, res);
    return { consumed: tally.shared + tally.inFlight + tally.pending, resetAt: tally.resetAt };
  }

  /** Sends every pending count now (best effort; failures are dropped). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.tallies.keys()].map((subject) => this.flush(subject).catch(() => {})));
  }

  /** Forgets subjects whose window ended with nothing left to send. */
  private prune(now: number): void {
    for (const [subject, t] of this.tallies) {
      if (now >= t.resetAt && t.pending === 0 && t.inFlight === 0) this.tallies.delete(subject);
    }
  }

  private fresh(subject: string): Tally {
    const t: Tally = { shared: 0, resetAt: 0, syncedAt: 0, pending: 0, inFlight: 0, timer: null };
    this.tallies.set(subject, t);
    return t;
  }

  private sync(t: Tally, res: RateLimiterRes): void {
    const now = Date.now();
    t.shared = res.consumedPoints;
    t.resetAt = now + (res.msBeforeNext > 0 ? res.msBeforeNext : this.windowMs);
    t.syncedAt = now;
  }

  private schedule(subject: string, t: Tally): void {
    if (t.timer) return;
    t.timer = setTimeout(() => {
      t.timer = null;
      this.flush(subject).catch(() => {});
    }, FLUSH_MS);
    t.timer.unref?.();
  }

  /** Sends the pending count of `subject`; on failure it stays pending for the next flush. */
  private async flush(subject: string): Promise<void> {
    const t = this.tallies.get(subject);
    if (!t || t.pending === 0 || t.inFlight > 0) return;
    const n = t.pending;
    t.pending = 0;
    t.inFlight = n;
    try {
      this.sync(t, await this.store(subject, n));
    } catch (err) {
      t.pending += n;
      throw err;
    } finally {
      t.inFlight = 0;
      if (Date.now() >= t.resetAt && t.pending === 0) this.tallies.delete(subject);
      else if (t.pending > 0) this.schedule(subject, t);
    }
  }

  /** `limiter.consume(subject, points)`, resolving with the store's answer whether or not it was over the limit. */
  private async store(subject: string, points: number): Promise<RateLimiterRes> {
    try {
      return await this.limiter.consume(subject, points);
    } catch (rejected) {
      if (isRateLimiterRes(rejected)) return rejected;
      throw rejected;
    }
  }
}

function isRateLimiterRes(x: unknown): x is RateLimiterRes {
  return typeof x === "object" && x !== null && "consumedPoints" in x && "msBeforeNext" in x;
}
