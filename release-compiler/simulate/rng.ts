/**
 * Seeded pseudo-random numbers for the simulator: sfc32 (Chris Doty-Humphrey's small fast
 * counting generator), seeded through a string/number hash. Every random decision of a
 * simulation comes from an Rng derived from the user's seed, so the same arguments give
 * byte-identical output. Never use Math.random or the clock in the simulator.
 */

/** 32-bit hash of a list of numbers and strings (murmur3-style mixing); order-sensitive. */
function hashSeed(...parts: Array<number | string>): number {
  let h = 0x811c9dc5 ^ parts.length;
  const mix = (k: number): void => {
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  };
  for (const part of parts) {
    if (typeof part === "number") {
      // Numbers up to 2^53: mix low and high 32-bit halves.
      mix(part >>> 0);
      mix(Math.floor(part / 0x100000000) >>> 0);
    } else {
      mix(0x5bd1e995 ^ part.length);
      for (let i = 0; i < part.length; i++) mix(part.charCodeAt(i));
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A generator for the stream named by `parts` (e.g. the seed, a purpose and an index). */
  constructor(...parts: Array<number | string>) {
    this.a = hashSeed(0x9e3779b9, ...parts);
    this.b = hashSeed(0x243f6a88, ...parts);
    this.c = hashSeed(0xb7e15162, ...parts);
    this.d = 1;
    for (let i = 0; i < 15; i++) this.nextU32();
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Standard normal deviate (Box–Muller; one value per call, for simplicity). */
  normal(): number {
    const u = 1 - this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Poisson deviate: Knuth's method for small means, a rounded normal for large ones. */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 40) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.float();
    while (p > limit) {
      k++;
      p *= this.float();
    }
    return k;
  }

  /** Fisher–Yates shuffle in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }

  /** Weighted choice: index i with probability weights[i] / sum(weights). */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
}
