import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/model.js';
import { plain, say } from '../../src/message/rich.js';
import { CARD_BODY_MAX_CHARS, renderCard } from '../../src/chat/teams/cards.js';
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
  it('Teams: a card body over CARD_BODY_MAX_CHARS is the brief', () => {
    const card = JSON.stringify(renderCard(big(CARD_BODY_MAX_CHARS * 2)));
    expect(card).toContain('The full report is in the thread.');
    expect(card).not.toContain('x'.repeat(100));
  });

  it('Teams: a card that fits shows every part', () => {
    const card = JSON.stringify(renderCard(big(2000)));
    expect(card).not.toContain('The full report is in the thread.');
    expect(card).toContain('x'.repeat(100));
  });

  it('Slack: blocks over MAX_BLOCKS_CHARS are the brief', () => {
    const { blocks } = renderMessage(big(MAX_BLOCKS_CHARS * 2));
    expect(JSON.stringify(blocks)).toContain('The full report is in the thread.');
    expect(JSON.stringify(blocks).length).toBeLessThan(MAX_BLOCKS_CHARS);
  });
});
