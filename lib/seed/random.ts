/**
 * Deterministic randomness for the demo data: a small seeded PRNG (mulberry32) so that the same
 * seed always yields the same choices, independent of `Math.random` and of faker's own state.
 */

/** 32-bit FNV-1a hash of a string; used to derive PRNG seeds from names. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded pseudo-random generator. Every method advances the same stream. */
export class Rng {
  private state: number;

  /** @param seed any integer or string; strings are hashed with FNV-1a. */
  constructor(seed: number | string) {
    this.state = (typeof seed === "string" ? hashString(seed) : seed) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability `p` (0..1). */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. @throws Error on an empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty array");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `n` distinct elements (fewer when the array is shorter), in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, n));
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** `length` characters from `alphabet` (default: uppercase letters and digits). */
  chars(length: number, alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"): string {
    let s = "";
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}
