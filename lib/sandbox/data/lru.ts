/**
 * A bounded least-recently-used map (a Map keeps insertion order: a hit moves the key to the end,
 * and the first key is the eldest). Entries are pure functions of their key, so eviction only
 * costs recomputation, never correctness.
 *
 * Bounded by count, and, given a way to weigh an entry, by total weight too (bytes, for caches of
 * text whose entries differ in size by orders of magnitude): the server's memory then stays within
 * a budget whatever windows are read, instead of growing with them and never dropping back.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly capacity: number,
    private readonly budget: { maxWeight: number; weigh: (value: V) => number } | null = null,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry !== undefined) {
      this.map.delete(key);
      this.map.set(key, entry);
    }
    return entry?.value;
  }

  set(key: K, value: V): void {
    this.remove(key);
    const weight = this.budget ? this.budget.weigh(value) : 0;
    // An entry heavier than the whole budget is not kept: it would evict everything and itself.
    if (this.budget && weight > this.budget.maxWeight) return;
    this.map.set(key, { value, weight });
    this.total += weight;
    while (this.map.size > this.capacity || (this.budget && this.total > this.budget.maxWeight)) {
      const eldest = this.map.keys().next();
      if (eldest.done) break;
      this.remove(eldest.value);
    }
  }

  private remove(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.total -= entry.weight;
  }

  get size(): number {
    return this.map.size;
  }

  /** The total weight held (0 without a budget). */
  get weight(): number {
    return this.total;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
