/**
 * A link in a Teams card opens only an http(s) address without credentials, as in Slack
 * (message/rich.ts openableUrl): anything else is its label alone, with no
 * Action.OpenUrl a reader could be sent through.
 */
import { describe, expect, it } from 'vitest';
import { link } from '../../src/message/rich.js';
import { richBlocks } from '../../src/chat/teams/cards.js';

/** The first text run's selectAction of a card made from one link. */
function actionOf(url: string): unknown {
  const [block] = richBlocks([link(url, 'Open')]) as {
    inlines: { selectAction?: unknown; text: string }[];
  }[];
  return block?.inlines[0]?.selectAction;
}

describe('Teams links', () => {
  it('an https address opens', () => {
    expect(actionOf('https://am.example/x?a=1&b=2')).toEqual({
      type: 'Action.OpenUrl',
      url: 'https://am.example/x?a=1&b=2',
    });
  });

  it('javascript:, a data: address and one with credentials are the label alone', () => {
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'https://u:p@am.example/',
      'not a url',
    ])
      expect(actionOf(url)).toBeUndefined();
  });
});
