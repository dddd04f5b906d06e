import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/model.js';
import { plain, say } from '../../src/message/rich.js';
import { CARD_BODY_MAX_BYTES, renderCard } from '../../src/chat/teams/cards.js';
import { MAX_BLOCKS_CHARS, renderMessage } from '../../src/chat/slack/render.js';

/** A message whose whole does not fit either platform, with its brief form. */
function big(size: number): ChatMessage {
  return {
    summary: plain('summary'),
    parts: [
      { kind: 'paragraph', text: plain('verdict') },
      ...Array.from({ length: 10 }, () => ({ kind: 'code' as const, body: 'x'.repeat(size / 10) })),
    ],
    brief: [
      { kind: 'paragraph', text: plain('verdict') },
      { kind: 'note', text: say`The full report is in the thread.` },
    ],
  };
}

describe('a message too big for its platform is sent in its brief form', () => {
  it('Teams: a card body over CARD_BODY_MAX_BYTES is the brief', () => {
    const card = JSON.stringify(renderCard(big(CARD_BODY_MAX_BYTES * 2)));
    expect(card).toContain('The full report is in the thread.');
    expect(card).not.toContain('x'.repeat(100));
  });

  it('Teams: a card that fits shows every part', () => {
    const card = JSON.stringify(renderCard(big(2000)));
    expect(card).not.toContain('The full report is in the thread.');
    expect(card).toContain('x'.repeat(100));
  });

  it('Teams: the limit is in bytes: Korean text of fewer characters than the limit but more bytes is the brief', () => {
    const korean: ChatMessage = {
      ...big(0),
      parts: [
        { kind: 'paragraph', text: plain('verdict') },
        ...Array.from({ length: 10 }, () => ({ kind: 'code' as const, body: '가'.repeat(1000) })),
      ],
    };
    // 10,000 characters, 30,000 bytes.
    const card = JSON.stringify(renderCard(korean));
    expect(card).toContain('The full report is in the thread.');
    expect(Buffer.byteLength(card)).toBeLessThan(CARD_BODY_MAX_BYTES);
  });

  it('Teams: a message without a brief form (a thread report part) is cut at a block, in order, with a mark', () => {
    const part = (i: number) => ({ kind: 'code' as const, body: `block-${i} ${'가'.repeat(2000)}` });
    const thread: ChatMessage = {
      summary: plain('report'),
      parts: Array.from({ length: 10 }, (_, i) => part(i)),
    };
    const card = renderCard(thread) as { body: { text?: string }[] };
    const text = JSON.stringify(card.body);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CARD_BODY_MAX_BYTES);
    expect(text).toContain('block-0 ');
    expect(text).not.toContain('block-9 ');
    expect(card.body.at(-1)?.text).toBe('✂ …');
    // One that fits is whole, with no mark.
    const small = renderCard({ ...thread, parts: thread.parts.slice(0, 2) }) as { body: { text?: string }[] };
    expect(JSON.stringify(small.body)).toContain('block-1 ');
    expect(JSON.stringify(small.body)).not.toContain('✂');
  });

  it('Slack: blocks over MAX_BLOCKS_CHARS are the brief', () => {
    const { blocks } = renderMessage(big(MAX_BLOCKS_CHARS * 2));
    expect(JSON.stringify(blocks)).toContain('The full report is in the thread.');
    expect(JSON.stringify(blocks).length).toBeLessThan(MAX_BLOCKS_CHARS);
  });
});
