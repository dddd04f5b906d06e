import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from '../../src/text/closest-names.js';

describe('closest names for a mistyped Deployment', () => {
  it('counts edits as typos go: a swap of neighbours is one', () => {
    expect(editDistance('vison-tracker', 'vision-tracker')).toBe(1);
    expect(editDistance('vsiion', 'vision')).toBe(1);
    expect(editDistance('checkout', 'checkout')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('offers the close ones, closest first, and nothing for an unrelated name', () => {
    const names = ['vision-object-tracker', 'vision-tracker', 'checkout', 'cart', 'vision-trackers'];
    expect(closestNames('vison-tracker', names)).toEqual(['vision-tracker', 'vision-trackers']);
    expect(closestNames('chekcout', names)).toEqual(['checkout']);
    expect(closestNames('object-tracker', names)).toEqual(['vision-object-tracker']);
    expect(closestNames('payments', names)).toEqual([]);
    // The exact name is not a suggestion (it would not be missing), and at most `max` come back.
    expect(closestNames('cart', ['cart', 'carts', 'card', 'care', 'cars'], 2)).toEqual(['carts', 'card']);
  });
});
