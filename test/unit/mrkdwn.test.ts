import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ASTERISK_LOOKALIKE,
  BACKTICK_LOOKALIKE,
  COLON_LOOKALIKE,
  QUOTE_LOOKALIKE,
  TILDE_LOOKALIKE,
  UNDERSCORE_LOOKALIKE,
  asIs,
  codeBlock,
  escapeMrkdwn,
  inlineCode,
  mrkdwn,
  plainText,
  truncateMrkdwn,
  userMention,
} from '../../src/chat/slack/blocks/mrkdwn.js';
import { proseSections } from '../../src/chat/slack/blocks/text.js';
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
          '*URGENT*',
          '_x_',
          '~y~',
          ':white_check_mark:',
          ':+1:',
          '\n> quote',
          '\n>>> all',
          'CUDA_VISIBLE_DEVICES',
          '10:42:07',
        ),
        fc.string(),
      ),
    )
    .map((parts) => parts.join('')),
);

/** Text made only of Slack's formatting characters, letters, digits and line breaks. */
const formatting = fc
  .array(fc.constantFrom('*', '_', '~', ':', '>', ' ', '\n', 'a', 'Z', '0', '7', '+', '-', "'", 'ok'))
  .map((parts) => parts.join(''));

/** What Slack could still read as formatting in mrkdwn outside code (from its rules, not our code). */
function formattingLeft(out: string): string[] {
  const found: string[] = [];
  if (/[*~]/.test(out)) found.push('asterisk or tilde');
  if (/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/.test(out)) found.push('underscore at a word boundary');
  for (const m of out.matchAll(/:(?=([a-z0-9_+'-]+):)/gi))
    if (!/^\d+$/.test(m[1] ?? '') || m[1] === '100' || m[1] === '1234') found.push(`shortcode :${m[1]}:`);
  if (/^[ \t]*(?:>|&gt;)/m.test(out)) found.push('quote at a line start');
  return found;
}

describe('Slack formatting in untrusted text (property)', () => {
  it('no *, ~, boundary _, :shortcode: or line-start > survives escapeMrkdwn or the mrkdwn template', () => {
    fc.assert(
      fc.property(fc.oneof(nasty, formatting), (text) => {
        expect(formattingLeft(escapeMrkdwn(text))).toEqual([]);
        expect(formattingLeft(escapeMrkdwn(text, { singleLine: true }))).toEqual([]);
        // Our literal keeps its bold; the value inside cannot close it or add its own.
        const out = mrkdwn`*Pod:* ${text}`;
        expect(out.startsWith('*Pod:* ')).toBe(true);
        expect(formattingLeft(out.slice('*Pod:* '.length))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('code blocks and code spans keep every formatting character as it was', () => {
    fc.assert(
      fc.property(formatting, (text) => {
        const body = text.replace(/^\n+|\n+$/g, '').replace(/>/g, '&gt;');
        expect(codeBlock(text, 100_000)).toBe(`\`\`\`\n${body}\n\`\`\``);
        expect(inlineCode(text)).toBe(`\`${text.replace(/\n+/g, ' ').replace(/>/g, '&gt;')}\``);
      }),
      { numRuns: 1000 },
    );
  });

  it('identifiers, timestamps and image references stay exact', () => {
    const identifier = fc
      .array(fc.stringMatching(/^[A-Za-z0-9]+$/), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.join('_'));
    fc.assert(
      fc.property(identifier, (id) => {
        expect(escapeMrkdwn(id)).toBe(id);
        expect(mrkdwn`${`${id}=${id}`}`).toBe(`${id}=${id}`);
      }),
    );
    for (const text of [
      'CUDA_VISIBLE_DEVICES=0,1 NVIDIA_DRIVER_CAPABILITIES=compute',
      'registry.example/team/app_server:v1.2.3',
      'Back-off at 10:42:07, retrying at 2024-05-01T10:42:07Z',
      'Error: exit status 1; host db:5432:tcp',
    ])
      expect(escapeMrkdwn(text)).toBe(text);
  });

  it('replaces each formatting character by its look-alike', () => {
    expect(escapeMrkdwn('*URGENT* approve now')).toBe(
      `${ASTERISK_LOOKALIKE}URGENT${ASTERISK_LOOKALIKE} approve now`,
    );
    expect(escapeMrkdwn('_x_ ~y~ __init__')).toBe(
      `${UNDERSCORE_LOOKALIKE}x${UNDERSCORE_LOOKALIKE} ${TILDE_LOOKALIKE}y${TILDE_LOOKALIKE} ${UNDERSCORE_LOOKALIKE.repeat(2)}init${UNDERSCORE_LOOKALIKE.repeat(2)}`,
    );
    expect(escapeMrkdwn(':white_check_mark: approved by SRE :100: :+1:')).toBe(
      `${COLON_LOOKALIKE}white_check_mark: approved by SRE ${COLON_LOOKALIKE}100: ${COLON_LOOKALIKE}+1:`,
    );
    expect(escapeMrkdwn('> quote\nok\n  >>> all')).toBe(
      `${QUOTE_LOOKALIKE} quote\nok\n  ${QUOTE_LOOKALIKE}&gt;&gt; all`,
    );
    // A name cannot close the bold we wrote around it.
    expect(mrkdwn`*${'web* :rotating_light: *prod'}*`).toBe(
      `*web${ASTERISK_LOOKALIKE} ${COLON_LOOKALIKE}rotating_light: ${ASTERISK_LOOKALIKE}prod*`,
    );
    // `@here_` was no bare broadcast word; with its underscore replaced it would be.
    expect(escapeMrkdwn('@here_')).toBe(`\uff20here${UNDERSCORE_LOOKALIKE}`);
  });

  it('a prose section that starts mid-text starts with no quote and no word-edge underscore', () => {
    const quoted = proseSections(escapeMrkdwn(`${'x'.repeat(2000)}. ${'y'.repeat(2895)}. > approve now`));
    const texts = quoted.map((b) => (b.text as { text: string }).text);
    expect(texts).toHaveLength(3);
    expect(texts[2]).toBe(`${QUOTE_LOOKALIKE} approve now`);
    const word = proseSections(escapeMrkdwn(`${'a'.repeat(2899)}_b${'c'.repeat(2897)}_d`));
    for (const b of word) expect((b.text as { text: string }).text).not.toMatch(/^_|_$/);
    // A long snake_case token: a few sections, not one per character, and still no edge `_`.
    const snake = proseSections(escapeMrkdwn('a_'.repeat(3000))).map(
      (b) => (b.text as { text: string }).text,
    );
    expect(snake.length).toBeLessThanOrEqual(3);
    for (const t of snake) expect(t).not.toMatch(/^_|_$/);
    expect(snake.join('').replace(/\uff3f/g, '_')).toBe('a_'.repeat(3000));
  });
});

describe('escapeMrkdwn and friends (property)', () => {
  it('defang a scheme glued to a word character (fast-check found "_https://…" auto-linking)', () => {
    for (const text of ['_https://evil.example/login', 'x_http://evil.example', '9mailto:a@evil.example']) {
      const out = escapeMrkdwn(text);
      expect(problemsInText(out)).toEqual([]);
      expect(out).not.toMatch(/(?:https?:\/\/|mailto:)/);
    }
  });

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

  it('a cut makes no broadcast word: `@here0` cut after `@here` stays defanged', () => {
    // Found by the property below (seed 1968283926): the word was no broadcast until the cut.
    const block = codeBlock('><\n>>> alla&b @channel @here0<!channel>', 48);
    expect(block).toContain('＠here…');
    expect(problemsInText(block)).toEqual([]);
    expect(problemsInText(truncateMrkdwn(escapeMrkdwn('say @everyone1'), 14))).toEqual([]);
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
