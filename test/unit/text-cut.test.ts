/**
 * Every cut of untrusted text ends on a whole character: half of a surrogate pair (an
 * emoji, a rare CJK character) shows as U+FFFD, and Slack refuses some payloads with one.
 */
import { describe, expect, it } from 'vitest';
import { cutText, sliceWhole } from '../../src/text/cut.js';
import { CELL_MAX, tableCell } from '../../src/text/columns.js';
import { clip as clipAtWord } from '../../src/text/sentences.js';
import { wrap } from '../../src/report/format.js';
import { clip as clipSpan } from '../../src/message/rich.js';
import { mrkdwn, MAX_INTERPOLATION } from '../../src/chat/slack/blocks/mrkdwn.js';

const LONE_HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `prefix` ASCII letters, then emoji: every cut point falls once on a pair's middle. */
const emojiAfter = (prefix: number, count: number): string => 'a'.repeat(prefix) + '😀'.repeat(count);

describe('cutting text', () => {
  it('cutText keeps whole pairs at every cut point, and leaves short text alone', () => {
    for (let prefix = 0; prefix < 4; prefix++)
      for (let max = 2; max < 20; max++) {
        const cut = cutText(emojiAfter(prefix, 20), max);
        expect(cut).not.toMatch(LONE_HALF);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(cut.endsWith('…')).toBe(true);
      }
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('abcdef', 4)).toBe('abc…');
  });

  it('sliceWhole drops a trailing high half only', () => {
    expect(sliceWhole('a😀', 2)).toBe('a');
    expect(sliceWhole('a😀', 3)).toBe('a😀');
    expect(sliceWhole('abc', 2)).toBe('ab');
  });

  it('every surface that cuts keeps whole pairs: table cells, wrapped words, summaries, spans, mrkdwn', () => {
    for (const prefix of [0, 1]) {
      const cell = tableCell(emojiAfter(prefix, CELL_MAX));
      expect(cell).not.toMatch(LONE_HALF);
      expect(cell.endsWith('…')).toBe(true);
      const [word] = wrap(emojiAfter(prefix, 400), 80);
      expect(word).not.toMatch(LONE_HALF);
      expect(word?.endsWith('…')).toBe(true);
      const summary = clipAtWord(emojiAfter(prefix, 100), 51);
      expect(summary).not.toMatch(LONE_HALF);
      expect(summary.endsWith('…')).toBe(true);
      expect(clipSpan(emojiAfter(prefix, 100), 51)).not.toMatch(LONE_HALF);
      const said: string = mrkdwn`${emojiAfter(prefix, MAX_INTERPOLATION)}`;
      expect(said).not.toMatch(LONE_HALF);
      expect(said.endsWith('…')).toBe(true);
    }
  });
});
