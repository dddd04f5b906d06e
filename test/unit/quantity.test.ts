import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  isQuantity,
  parseQuantity,
  quantityMilli,
  quantityValue,
  schedulerAmount,
} from '../../src/diagnosis/base/quantity.js';

describe('Kubernetes quantities', () => {
  it.each([
    ['500m', 0.5],
    ['1', 1],
    [1, 1],
    [0.5, 0.5],
    ['2Gi', 2 * 1024 ** 3],
    ['1e3', 1000],
    ['1E3', 1000],
    ['100M', 100_000_000],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['128974848', 128974848],
    ['129e6', 129_000_000],
    ['123Mi', 123 * 1024 ** 2],
    ['1k', 1000],
    ['1Ki', 1024],
    ['2E', 2e18],
    ['+3', 3],
    ['-1', -1],
    ['100n', 1e-7],
  ] as const)('%s is %d', (input, expected) => {
    expect(parseQuantity(input)).toBeCloseTo(expected, 12);
  });

  it('rounds up like MilliValue/Value, exactly', () => {
    expect(quantityMilli('1.1')).toBe(1100);
    expect(quantityMilli('0.1')).toBe(100);
    expect(quantityMilli('250m')).toBe(250);
    expect(quantityMilli('1u')).toBe(1);
    expect(quantityValue('100m')).toBe(1);
    expect(quantityValue('1.5Gi')).toBe(1610612736);
    expect(schedulerAmount('cpu', '2')).toBe(2000);
    expect(schedulerAmount('memory', '1Mi')).toBe(1048576);
    expect(schedulerAmount('nvidia.com/gpu', 1)).toBe(1);
  });

  it('refuses what is not a quantity', () => {
    for (const bad of ['', 'abc', '1Gb', '1.2.3', 'Gi', '1 Gi', '1e']) {
      expect(isQuantity(bad)).toBe(false);
      expect(() => parseQuantity(bad)).toThrow(/invalid quantity/);
    }
  });

  it('millicores are exact for any decimal with up to 3 places (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (milli) => {
        const text = `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
        expect(quantityMilli(text)).toBe(milli);
        expect(quantityMilli(`${milli}m`)).toBe(milli);
      }),
    );
  });

  it('formats amounts back into readable quantities', () => {
    expect(formatAmount('cpu', 500)).toBe('500m');
    expect(formatAmount('cpu', 3000)).toBe('3');
    expect(formatAmount('memory', 2 * 1024 ** 3)).toBe('2Gi');
    expect(formatAmount('memory', 1536 * 1024 ** 2)).toBe('1536Mi');
    expect(formatAmount('nvidia.com/gpu', 1)).toBe('1');
  });
});
