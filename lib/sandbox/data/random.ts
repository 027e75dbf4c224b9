/**
 * Deterministic randomness for the sandbox data: every random number is a function of
 * (user, purpose, integer index), never of the order in which things are asked for or of the
 * process that asks. No Math.random.
 *
 * - `hashString` (FNV-1a, 32 bit) turns a username into a seed once.
 * - `mix` (the murmur3 finalizer over combined words) derives the seed of a purpose and index,
 *   e.g. (user, PURPOSE.plan, localDay). It is cheap enough to call per reading.
 * - `Rng` is mulberry32: small, fast, good enough for synthetic physiology.
 * - `valueNoise` is smooth 1-D noise (Catmull-Rom through hashed knots), continuous across day
 *   boundaries because knots are indexed on the absolute time axis.
 */

export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function fmix(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit hash of up to four integers (indices may be negative or beyond 2^32: both halves count). */
export function mix(a: number, b: number, c = 0, d = 0): number {
  let h = fmix(a ^ 0x9e3779b9);
  h = fmix(h ^ Math.imul(b | 0, 0x27d4eb2f) ^ Math.floor(b / 4294967296));
  h = fmix(h ^ Math.imul(c | 0, 0x165667b1) ^ Math.floor(c / 4294967296));
  h = fmix(h ^ Math.imul(d | 0, 0x61c88647) ^ Math.floor(d / 4294967296));
  return h;
}

/** Uniform in [0, 1) from a hash. */
export function unit(hash: number): number {
  return hash / 4294967296;
}

/** Purposes: distinct streams of randomness for the same user and index. */
export const PURPOSE = {
  plan: 1,
  gaps: 2,
  noise: 3,
  driftDay: 4,
  driftHours: 5,
  driftMinutes: 6,
  sensorSlow: 7,
  compression: 8,
  noArrow: 9,
  wear: 10,
  forced: 11,
  eventId: 12,
  upload: 13,
  meter: 14,
  // API v3 only (new streams: nothing v1/v2 serves draws from them).
  transmitter: 15,
  alertAck: 16,
  gapAlert: 17,
  edited: 18,
  v3Events: 19,
} as const;

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
  int(lo: number, hiInclusive: number): number {
    return lo + Math.floor(this.next() * (hiInclusive - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Standard normal (Box–Muller), clipped to ±3 so that no draw is absurd. */
  gauss(): number {
    const u = 1 - this.next();
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(-3, Math.min(3, z));
  }
}

/** Standard normal from a single hash (two derived uniforms), clipped to ±3. */
export function gaussFromHash(hash: number): number {
  const u = 1 - unit(hash);
  const v = unit(fmix(hash ^ 0x5bd1e995));
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(-3, Math.min(3, z));
}

/**
 * Smooth noise in about [−1, 1] at time `t` (any unit) with knots every `period`: Catmull-Rom
 * through knot values that are uniform in [−1, 1].
 */
export function valueNoise(seed: number, purpose: number, t: number, period: number): number {
  const x = t / period;
  const k = Math.floor(x);
  const f = x - k;
  const p0 = unit(mix(seed, purpose, k - 1)) * 2 - 1;
  const p1 = unit(mix(seed, purpose, k)) * 2 - 1;
  const p2 = unit(mix(seed, purpose, k + 1)) * 2 - 1;
  const p3 = unit(mix(seed, purpose, k + 2)) * 2 - 1;
  const f2 = f * f;
  const f3 = f2 * f;
  return (
    0.5 * (2 * p1 + (-p0 + p2) * f + (2 * p0 - 5 * p1 + 4 * p2 - p3) * f2 + (-p0 + 3 * p1 - 3 * p2 + p3) * f3)
  );
}

/**
 * `valueNoise` for one (seed, purpose, period) with the four knots of the last interval kept:
 * consecutive readings share knots, so most calls cost no hashing. Same values as valueNoise.
 */
export class NoiseTrack {
  private k = Number.NaN;
  private p0 = 0;
  private p1 = 0;
  private p2 = 0;
  private p3 = 0;
  constructor(
    private readonly seed: number,
    private readonly purpose: number,
    private readonly period: number,
  ) {}

  at(t: number): number {
    const x = t / this.period;
    const k = Math.floor(x);
    if (k !== this.k) {
      const { seed, purpose } = this;
      this.p0 = unit(mix(seed, purpose, k - 1)) * 2 - 1;
      this.p1 = unit(mix(seed, purpose, k)) * 2 - 1;
      this.p2 = unit(mix(seed, purpose, k + 1)) * 2 - 1;
      this.p3 = unit(mix(seed, purpose, k + 2)) * 2 - 1;
      this.k = k;
    }
    const f = x - k;
    const { p0, p1, p2, p3 } = this;
    const f2 = f * f;
    const f3 = f2 * f;
    return (
      0.5 *
      (2 * p1 + (-p0 + p2) * f + (2 * p0 - 5 * p1 + 4 * p2 - p3) * f2 + (-p0 + 3 * p1 - 3 * p2 + p3) * f3)
    );
  }
}

/** A UUID-shaped id (version 4 and variant bits set) from a text: stable for the same text. */
export function uuidFromText(text: string): string {
  // cyrb53's two 32-bit lanes: 64 bits of the text, so ids of one user's events do not collide.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const words = [mix(h1, h2, 1), mix(h1, h2, 2), mix(h2, h1, 3), mix(h2, h1, 4)].map((w) =>
    w.toString(16).padStart(8, "0"),
  );
  const hex = words.join("");
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
