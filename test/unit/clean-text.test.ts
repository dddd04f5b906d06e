/**
 * cleanText and escapeJsonControls on the variation selectors: the ones that together can
 * carry bytes (U+FE00-FE0E, U+E0100-E01EF) go, the emoji presentation selector U+FE0F
 * stays (emoji and our own icons carry it: the README pictures show ⚙️).
 */
import { describe, expect, it } from 'vitest';
import { cleanText, escapeJsonControls } from '../../src/text/clean.js';

describe('variation selectors in untrusted text', () => {
  it('removes the selectors that smuggle bytes, in text and in JSON', () => {
    const hidden = 'pod\ufe00\ufe0e\udb40\udd00\udb40\uddef-1';
    expect(cleanText(hidden)).toBe('pod-1');
    expect(escapeJsonControls(JSON.stringify(hidden))).toBe(
      '"pod\\ufe00\\ufe0e\\udb40\\udd00\\udb40\\uddef-1"',
    );
  });

  it('keeps the emoji presentation selector of an icon', () => {
    expect(cleanText('\u2699\ufe0f Strategy')).toBe('\u2699\ufe0f Strategy');
    expect(escapeJsonControls(JSON.stringify('\u2699\ufe0f'))).toBe('"\u2699\ufe0f"');
  });

  it('removes every default-ignorable code point but U+FE0F, in text and in JSON', () => {
    const kept: string[] = [];
    for (let point = 0x80; point <= 0x10ffff; point++) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const c = String.fromCodePoint(point);
      if (point === 0xfe0f || !/\p{Default_Ignorable_Code_Point}/u.test(c)) continue;
      if (cleanText(`a${c}b`) !== 'ab' || /[^\x20-\x7e]/.test(escapeJsonControls(JSON.stringify(c))))
        kept.push(point.toString(16));
    }
    expect(kept).toEqual([]);
  });
});
