import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/lru.js';

describe('Lru', () => {
  it('holds at most max entries, forgetting the least recently used and telling of it', () => {
    const evicted: string[] = [];
    const lru = new Lru<string, number>(3, (k) => evicted.push(k));
    for (const [i, k] of ['a', 'b', 'c'].entries()) lru.set(k, i);
    expect(lru.get('a')).toBe(0); // a is now the most recent: b goes first
    lru.set('d', 3);
    expect(evicted).toEqual(['b']);
    expect(lru.keys()).toEqual(['c', 'a', 'd']);
    lru.set('c', 9); // setting again refreshes, evicts nothing
    expect(evicted).toEqual(['b']);
    expect(lru.peek('a')).toBe(0);
    lru.set('e', 4);
    expect(evicted).toEqual(['b', 'a']); // peek did not refresh a
    expect(lru.size).toBe(3);
  });

  it('stays bounded under a flood of new keys', () => {
    const lru = new Lru<number, number>(100);
    for (let i = 0; i < 100_000; i++) lru.set(i, i);
    expect(lru.size).toBe(100);
    expect(lru.keys()[0]).toBe(99_900);
    expect(() => new Lru(0)).toThrow(RangeError);
  });
});
