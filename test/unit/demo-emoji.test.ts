/**
 * The demo's terminal and the preview page show every icon the app renders as its
 * symbol, never as a leftover `:shortcode:` (found trying the demo as a new user).
 */
import { describe, expect, it } from 'vitest';
import { SLACK_ICONS } from '../../src/chat/slack/render.js';
import { EMOJI as TERMINAL, mrkdwnToText } from '../../scripts/demo/slack-render.js';
import { EMOJI as PREVIEW } from '../../scripts/preview/mrkdwn.js';

describe('icons outside Slack', () => {
  it.each([
    ['the demo terminal', TERMINAL],
    ['the preview page', PREVIEW],
  ])('%s has a symbol for every icon the app renders', (_where, map) => {
    expect(Object.values(SLACK_ICONS).filter((code) => map[code] === undefined)).toEqual([]);
  });

  it('the terminal shows a struck verdict without its tildes', () => {
    expect(
      mrkdwnToText(':white_check_mark: *Resolved* (rolled out): ~*RolloutSurgeDeadlock*: never finish~', {
        color: false,
      }),
    ).toBe('✅ Resolved (rolled out): RolloutSurgeDeadlock: never finish');
  });
});
