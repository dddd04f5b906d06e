/**
 * A Map bounded to `max` entries: setting past it forgets the least recently used one
 * (set or read with `get`), telling `onEvict`. The webhook keeps everything it learns per
 * namespace or per change in one of these (cached-source.ts), so a flood of reviews in
 * made-up namespaces or of made-up changes cannot grow its memory.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    readonly max: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`an LRU holds at least 1 entry, not ${max}`);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key) as V;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** The value, its place unchanged. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) {
      const [oldest, old] = this.map.entries().next().value as [K, V];
      this.map.delete(oldest);
      this.onEvict?.(oldest, old);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  /** Entries, the least recently used first. */
  entries(): [K, V][] {
    return [...this.map];
  }

  keys(): K[] {
    return [...this.map.keys()];
  }
}
