import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BACKTICK_LOOKALIKE,
  asIs,
  codeBlock,
  escapeMrkdwn,
  inlineCode,
  mrkdwn,
  plainText,
  truncateMrkdwn,
  userMention,
} from '../../src/app/blocks/mrkdwn.js';
import { cleanText } from '../../src/text/clean.js';
import { HOSTILE_PIECES, problemsInPlainText, problemsInText } from '../hostile/support/hostile-text.js';

// Strings rich in what matters: markup, fences, controls, bidi, escapes, plus any unicode.
const nasty = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          ...HOSTILE_PIECES,
          '<',
          '>',
          '&',
          '`',
          '```',
          '|',
          '\u001b',
          '\u009b',
          '\r',
          '\n',
          '&amp;',
        ),
        fc.string(),
      ),
    )
    .map((parts) => parts.join('')),
);

describe('escapeMrkdwn and friends (property)', () => {
  it('leave no angle bracket, control or bidi character, and no fence', () => {
    fc.assert(
      fc.property(nasty, (text) => {
        const out = escapeMrkdwn(text);
        expect(out).not.toMatch(/[<>`]/);
        expect(problemsInText(out)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('a code block of any text has exactly two fences and cannot be closed from inside', () => {
    fc.assert(
      fc.property(nasty, fc.integer({ min: 1, max: 400 }), (text, max) => {
        const block = codeBlock(text, max);
        expect(block.split('```')).toHaveLength(3);
        expect(block.startsWith('```\n') && block.endsWith('\n```')).toBe(true);
        expect(problemsInText(block)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('the mrkdwn template escapes every interpolated string and keeps ours', () => {
    fc.assert(
      fc.property(nasty, nasty, (a, b) => {
        const out = mrkdwn`*${a}* in ${asIs(inlineCode(b))} (${3})`;
        expect(out.startsWith('*')).toBe(true);
        expect(problemsInText(out)).toEqual([]);
        expect(out.split('`')).toHaveLength(3);
      }),
      { numRuns: 1000 },
    );
  });

  it('plain text is one clean line within its limit', () => {
    fc.assert(
      fc.property(nasty, fc.integer({ min: 1, max: 300 }), (text, max) => {
        const out = plainText(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/\n/);
        expect(problemsInPlainText(out)).toEqual([]);
      }),
    );
  });

  it('escapes as Slack requires and defangs what would ping or link', () => {
    expect(escapeMrkdwn('a & <!channel> <@U1> <https://x|y>')).toBe(
      'a &amp; &lt;!channel&gt; &lt;@U1&gt; &lt;https[:]//x|y&gt;',
    );
    expect(escapeMrkdwn('see https://evil.example now')).toBe('see https[:]//evil.example now');
    expect(escapeMrkdwn('@here and @channel')).toBe('\uff20here and \uff20channel');
    expect(escapeMrkdwn('```x```')).toBe(BACKTICK_LOOKALIKE.repeat(3) + 'x' + BACKTICK_LOOKALIKE.repeat(3));
  });

  it('never cuts an escaped entity in half', () => {
    expect(truncateMrkdwn(escapeMrkdwn('ab&c'), 5)).toBe('ab…');
  });

  it('mentions only well-formed user ids', () => {
    expect(userMention('U0LEAD')).toBe('<@U0LEAD>');
    expect(userMention('U1><!channel')).toBe('U1&gt;&lt;!channel');
  });
});

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('cleanText (terminal and chat)', () => {
  it('removes OSC 8 links and OSC 52 clipboard writes whole, with their payload', () => {
    expect(cleanText('a\u001b]8;;https://evil\u0007click\u001b]8;;\u0007b')).toBe('aclickb');
    expect(cleanText('a\u001b]52;c;ZXZpbA==\u0007b')).toBe('ab');
    expect(cleanText('a\u001b]52;c;ZXZpbA==\u001b\\b')).toBe('ab');
  });

  it('removes CSI (7- and 8-bit), C1, BEL and backspace; turns CR into a newline', () => {
    expect(cleanText('\u001b[2J\u001b[31mred\u001b[0m')).toBe('red');
    expect(cleanText('\u009b31mx\u009d8;;u\u009cy')).toBe('xy');
    expect(cleanText('ok\u0007\u0008\u0008no\rover')).toBe('okno\nover');
    expect(cleanText('a\r\nb\tc')).toBe('a\nb\tc');
  });

  it('removes bidi controls, direction marks and invisible formatting', () => {
    expect(cleanText('\u202Egnp.exe\u202C\u2066x\u2069\u200E\u200F\u061C\u200B\uFEFF\u00AD')).toBe(
      'gnp.exex',
    );
  });

  it('leaves nothing a terminal would act on (property)', () => {
    fc.assert(
      fc.property(nasty, (text) => {
        expect(cleanText(text)).not.toMatch(TERMINAL_CONTROL);
      }),
      { numRuns: 2000 },
    );
  });
});
