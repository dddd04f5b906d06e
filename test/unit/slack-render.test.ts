import { describe, expect, it } from 'vitest';
import type { ChatAction } from '../../src/chat/actions.js';
import type { ChatMessage } from '../../src/chat/model.js';
import {
  code,
  emphasis,
  group,
  icon,
  link,
  mention,
  plain,
  say,
  strong,
  text,
} from '../../src/message/rich.js';
import { decodeAction, encodeAction } from '../../src/chat/slack/actions.js';
import { renderMessage, toMrkdwn } from '../../src/chat/slack/render.js';
import { ACTION, planButtonValue, rerunValue } from '../../src/chat/slack/blocks/action-ids.js';

const HOSTILE = '<!channel> *URGENT* _x_ ~y~ :white_check_mark: `rm` <https://evil.example|ok> @here';

describe('Slack rendering of the chat port', () => {
  it('escapes every text span, whatever its style', () => {
    for (const span of [text(HOSTILE), strong(HOSTILE), emphasis(HOSTILE), code(HOSTILE)]) {
      const out = toMrkdwn([span]);
      expect(out).not.toMatch(/<[!@#]|<https?:/);
      // Code shows formatting literally; everywhere else it is made inert.
      if (span.kind !== 'code') expect(out).not.toContain(':white_check_mark:');
      expect(out).not.toContain('https://');
      expect(out).not.toMatch(/(^|\s)@here/);
    }
    expect(toMrkdwn([strong('a*b')])).toBe('*a\u2217b*');
    expect(toMrkdwn([code('a`b')])).toBe('`a\u02cbb`');
  });

  it('makes mentions, groups, icons and links only from structured spans', () => {
    const slackPerson = { platform: 'slack', id: 'U123ABC' };
    const teamsPerson = { platform: 'teams', id: '<@U999>', name: '<!here>' };
    expect(toMrkdwn(say`${icon('ok')} by ${mention(slackPerson)} and ${mention(teamsPerson)}`)).toBe(
      ':white_check_mark: by <@U123ABC> and &lt;!here&gt;',
    );
    expect(toMrkdwn([group('slack', 'S0SRE')])).toBe('<!subteam^S0SRE>');
    expect(toMrkdwn([mention({ platform: 'slack', id: '<!channel>' })])).toBe('&lt;!channel&gt;');
    expect(toMrkdwn([link('https://am.example/x?a=1&b=2', 'Alertmanager')])).toBe(
      '<https://am.example/x?a=1&amp;b=2|Alertmanager>',
    );
    expect(toMrkdwn([link('javascript:alert(1)', 'Open')])).toBe('Open');
    expect(toMrkdwn([link('https://u:p@am.example/', 'Open *now*')])).toBe('Open \u2217now\u2217');
  });

  it('keeps a line break only where the port put one', () => {
    expect(toMrkdwn(say`one\ntwo ${'three\n> four'}`)).toBe('one\ntwo three &gt; four');
  });

  it('renders parts as Block Kit within Slack limits, roles as the root block ids', () => {
    const message: ChatMessage = {
      summary: plain('Diagnosis'),
      parts: [
        { kind: 'heading', text: 'x'.repeat(400) },
        { kind: 'paragraph', text: say`${strong('Verdict')}: ${HOSTILE}`, role: 'verdict' },
        { kind: 'note', text: plain('cluster prod') },
        { kind: 'code', body: 'line1\n```\nline3' },
        { kind: 'table', title: plain('Pods'), header: ['NAME', 'NODE'], rows: [['web-1', 'n1']] },
        {
          kind: 'actions',
          buttons: [
            {
              label: 'Apply: set-recreate',
              style: 'primary',
              action: { kind: 'approve', planId: 'p1', shown: 'a'.repeat(64), requester: 'U1' },
              confirm: { title: 'Apply?', text: 'y'.repeat(500), yes: 'Apply', no: 'Cancel' },
            },
            { label: 'Dismiss', action: { kind: 'dismiss' } },
          ],
        },
        { kind: 'divider' },
      ],
    };
    const { text: fallback, blocks } = renderMessage(message);
    expect(fallback).toBe('Diagnosis');
    expect(blocks.map((b) => b.type)).toEqual([
      'header',
      'section',
      'context',
      'section',
      'section',
      'actions',
      'divider',
    ]);
    expect((blocks[0] as { text: { text: string } }).text.text).toHaveLength(150);
    expect(blocks[1]).toMatchObject({ block_id: 'rd-verdict' });
    expect((blocks[3] as { text: { text: string } }).text.text).toBe(
      '```\nline1\n\u02cb\u02cb\u02cb\nline3\n```',
    );
    expect((blocks[4] as { text: { text: string } }).text.text).toBe(
      'Pods\n```\nNAME   NODE\nweb-1  n1\n```',
    );
    const [apply, dismiss] = (blocks[5] as { elements: Record<string, unknown>[] }).elements;
    expect(apply).toMatchObject({
      action_id: `${ACTION.approve}.0`,
      style: 'primary',
      value: planButtonValue('p1', 'a'.repeat(64), 'U1'),
    });
    expect((apply?.confirm as { text: { text: string } }).text.text).toHaveLength(300);
    expect(dismiss).toMatchObject({ action_id: ACTION.dismiss, value: 'dismiss' });
  });

  it('never sends more than 50 blocks', () => {
    const parts = Array.from({ length: 80 }, () => ({ kind: 'divider' as const }));
    expect(renderMessage({ summary: plain('x'), parts }).blocks).toHaveLength(50);
  });
});

describe('Slack buttons of the port actions', () => {
  it('round-trips every action through the action id and value Slack returns', () => {
    const actions: ChatAction[] = [
      { kind: 'approve', planId: 'p1', shown: 'b'.repeat(64), requester: '-' },
      { kind: 'undo', planId: 'p2', shown: 'c'.repeat(64), requester: null },
      { kind: 'rerun', cluster: 'prod', target: { namespace: 'ns', name: 'web', kind: 'StatefulSet' } },
      { kind: 'status', planId: 'p3' },
      { kind: 'dismiss' },
    ];
    for (const action of actions) {
      const { actionId, value } = encodeAction(action, 2);
      expect(decodeAction(actionId, value)).toEqual(action);
    }
    expect(encodeAction(actions[2] as ChatAction, 0).value).toBe(
      rerunValue('prod', { namespace: 'ns', name: 'web', kind: 'StatefulSet' }),
    );
  });

  it('decodes nothing our buttons never carry', () => {
    expect(decodeAction('delete_everything', 'x')).toBeNull();
    expect(decodeAction(ACTION.rerun, 'prod/ns')).toBeNull();
    expect(decodeAction(ACTION.rerun, 'prod/ns/web/pod')).toBeNull();
  });
});
