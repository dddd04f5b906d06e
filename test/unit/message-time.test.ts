import { describe, expect, it } from 'vitest';
import { messageTime } from '../../src/text/time.js';

describe('one time format in a message (issue 31.5)', () => {
  it('an instant, an ISO string with an offset and a Date read the same, in UTC minutes', () => {
    const at = Date.UTC(2026, 10, 23, 3, 12, 59, 999);
    expect(messageTime(at)).toBe('2026-11-23 03:12 UTC');
    expect(messageTime('2026-11-23T05:12:59+02:00')).toBe('2026-11-23 03:12 UTC');
    expect(messageTime(new Date(at))).toBe('2026-11-23 03:12 UTC');
  });

  it('text that is not a time stays as it was, for the renderer to escape', () => {
    expect(messageTime('yesterday <!channel>')).toBe('yesterday <!channel>');
  });
});
