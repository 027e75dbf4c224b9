/**
 * A bounded least-recently-used map (a Map keeps insertion order: a hit moves the key to the end,
 * and the first key is the eldest). Entries are pure functions of their key, so eviction only
 * costs recomputation, never correctness.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) {
      const eldest = this.map.keys().next();
      if (eldest.done) break;
      this.map.delete(eldest.value);
    }
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
  }
}
