/**
 * The Block Kit preview's renderer (scripts/preview): Slack mrkdwn and Block Kit to the
 * plain node tree the page turns into DOM. Text from the cluster stays in strings
 * (text nodes); only this code chooses elements.
 */
import { describe, expect, it } from 'vitest';
import { blockNode, messageBody } from '../../scripts/preview/blocks.js';
import { mrkdwnNodes } from '../../scripts/preview/mrkdwn.js';
import { textOf, type RElement, type RNode } from '../../scripts/preview/render-tree.js';
import { buildView, ephemeralCalls } from '../../scripts/preview/view.js';
import type { SlackCall, StoredMessage } from '../support/slack-standin.js';

const elements = (nodes: readonly RNode[]): RElement[] =>
  nodes.flatMap((n) => (typeof n === 'string' ? [] : [n, ...elements(n.k ?? [])]));
const tags = (nodes: readonly RNode[]): string[] => elements(nodes).map((e) => e.t);
const find = (nodes: readonly RNode[], pick: (e: RElement) => boolean): RElement[] =>
  elements(nodes).filter(pick);

describe('mrkdwn', () => {
  it('renders bold, italic, strike, code and code blocks as Slack does', () => {
    const nodes = mrkdwnNodes('*Verdict*: _stuck_ ~old~ `kubectl get pods`\n```\n{"a": 1}\n```\nafter');
    expect(nodes).toEqual([
      { t: 'b', k: ['Verdict'] },
      ': ',
      { t: 'i', k: ['stuck'] },
      ' ',
      { t: 's', k: ['old'] },
      ' ',
      { t: 'code', k: ['kubectl get pods'] },
      { t: 'pre', k: ['{"a": 1}'] },
      'after',
    ]);
  });

  it('leaves markers inside words and unmatched fences alone', () => {
    expect(textOf(mrkdwnNodes('snake_case_name 2*3*4 a * b'))).toBe('snake_case_name 2*3*4 a * b');
    expect(tags(mrkdwnNodes('snake_case_name 2*3*4 a * b'))).toEqual([]);
    expect(mrkdwnNodes('file_name_ and x*y* z')).toEqual(['file_name_ and x*y* z']);
    expect(mrkdwnNodes('one ``` fence')).toEqual(['one ``` fence']);
    // Formatting does not reach into code.
    expect(mrkdwnNodes('`*not bold*`')).toEqual([{ t: 'code', k: ['*not bold*'] }]);
  });

  it('decodes the escapes into text, so escaped cluster text is shown as typed and never parsed', () => {
    const hostile = 'msg: &lt;img src=x onerror=alert(1)&gt; &amp;lt; &lt;https://evil|click&gt;';
    const nodes = mrkdwnNodes(hostile);
    expect(nodes).toEqual(['msg: <img src=x onerror=alert(1)> &lt; <https://evil|click>']);
    const inCode = mrkdwnNodes('```&lt;script&gt;alert(1)&lt;/script&gt;```');
    expect(inCode).toEqual([{ t: 'pre', k: ['<script>alert(1)</script>'] }]);
  });

  it('makes links only of http(s) and mailto targets; mentions and emoji as text', () => {
    const nodes = mrkdwnNodes(
      '<https://example.com/a?b=1&amp;c=2|runbook> <javascript:alert(1)|x> <@U0LEAD> <#C0INC|incidents> <!here> :rocket: :no_such_emoji:',
    );
    const links = find(nodes, (e) => e.t === 'a');
    expect(links).toEqual([
      {
        t: 'a',
        k: ['runbook'],
        href: 'https://example.com/a?b=1&c=2',
        title: 'https://example.com/a?b=1&c=2',
      },
    ]);
    expect(find(nodes, (e) => e.c === 'link-unsafe')[0]).toMatchObject({
      k: ['x'],
      title: 'javascript:alert(1)',
    });
    expect(textOf(nodes)).toBe('runbook x @U0LEAD #incidents @here 🚀 :no_such_emoji:');
  });

  it('turns lines starting with > into a quote', () => {
    expect(mrkdwnNodes('intro\n> quoted *text*\nend')).toEqual([
      'intro',
      { t: 'blockquote', k: ['quoted ', { t: 'b', k: ['text'] }] },
      'end',
    ]);
  });
});

describe('Block Kit', () => {
  const where = { channel: 'C0INC', ts: '1700000000.000001' };

  it('lays out header, section with fields, context and divider', () => {
    const nodes = messageBody(
      {
        text: 'fallback',
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: 'Crash loop :fire:' } },
          {
            type: 'section',
            text: { type: 'mrkdwn', text: '*node-b*' },
            fields: [
              { type: 'mrkdwn', text: '*Restarts*\n5' },
              { type: 'plain_text', text: '<b>raw</b>' },
            ],
          },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'cluster _demo_' }] },
          { type: 'divider' },
        ],
      },
      where,
    );
    expect(nodes.map((n) => (typeof n === 'string' ? n : n.c))).toEqual([
      'block header',
      'block section',
      'block context',
      'block divider',
    ]);
    expect(textOf(nodes)).toBe('Crash loop 🔥node-bRestarts\n5<b>raw</b>cluster demo');
    expect(find(nodes, (e) => e.c === 'field')).toHaveLength(2);
    // plain_text is never mrkdwn: its markup-looking text is one string.
    expect(find(nodes, (e) => e.c === 'field')[1]?.k).toEqual(['<b>raw</b>']);
    expect(textOf(messageBody({ text: 'only *text*', blocks: [] }, where))).toBe('only text');
  });

  it('renders buttons with their style, confirm dialog and what a click must name', () => {
    const node = blockNode(
      {
        type: 'actions',
        block_id: 'plans',
        elements: [
          {
            type: 'button',
            action_id: 'approve_plan.0',
            style: 'primary',
            value: 'plan-1',
            text: { type: 'plain_text', text: 'Apply: set-rolling-update' },
            confirm: {
              title: { type: 'plain_text', text: 'Apply set-rolling-update?' },
              text: { type: 'mrkdwn', text: 'Sets *maxSurge 0*' },
              confirm: { type: 'plain_text', text: 'Apply' },
              deny: { type: 'plain_text', text: 'Cancel' },
            },
          },
          {
            type: 'button',
            action_id: 'undo_plan.1',
            style: 'danger',
            text: { type: 'plain_text', text: 'Undo' },
          },
          { type: 'button', action_id: 'plan_status.2', text: { type: 'plain_text', text: 'Approved: x' } },
          { type: 'button', action_id: 'rerun_diagnosis', text: { type: 'plain_text', text: 'Re-run' } },
        ],
      },
      3,
      where,
    );
    const buttons = find([node], (e) => e.t === 'button');
    expect(buttons.map((b) => [b.c, b.button?.disabled ?? false])).toEqual([
      ['btn primary', false],
      ['btn danger', false],
      ['btn disabled', true],
      ['btn', false],
    ]);
    expect(buttons[0]?.button).toEqual({
      channel: 'C0INC',
      ts: '1700000000.000001',
      blockId: 'plans',
      actionId: 'approve_plan.0',
      confirm: {
        title: 'Apply set-rolling-update?',
        text: ['Sets ', { t: 'b', k: ['maxSurge 0'] }],
        confirm: 'Apply',
        deny: 'Cancel',
      },
    });
    // A block without an id gets the one Slack reports for it (b<index>), as the click payload says.
    const anonymous = blockNode(
      {
        type: 'actions',
        elements: [{ type: 'button', action_id: 'a', text: { type: 'plain_text', text: 'A' } }],
      },
      5,
      where,
    );
    expect(find([anonymous], (e) => e.t === 'button')[0]?.button?.blockId).toBe('b5');
  });
});

describe('the page view', () => {
  const message = (ts: string, text: string, extra: Partial<StoredMessage> = {}): StoredMessage => ({
    channel: 'C0INC',
    ts,
    text,
    blocks: [],
    updates: 0,
    ...extra,
  });
  const posted = (ts: string, at: number): SlackCall => ({
    method: 'chat.postMessage',
    args: {},
    status: 200,
    response: { ok: true, channel: 'C0INC', ts },
    at,
  });

  it('puts replies under their parent in post order, marks updates, drops deleted ones, shows ephemerals', () => {
    const messages = new Map<string, StoredMessage>([
      ['C0INC/1.000001', message('1.000001', 'result', { updates: 2 })],
      ['C0INC/1.000002', message('1.000002', 'report', { threadTs: '1.000001' })],
      ['C0INC/1.000004', message('1.000004', 'rolled out', { threadTs: '1.000001' })],
      ['C0INC/1.000003', message('1.000003', 'applied', { threadTs: '1.000001' })],
      ['C0INC/1.000005', message('1.000005', 'orphan', { threadTs: '1.000009' })],
    ]);
    const calls: SlackCall[] = [
      posted('1.000001', 10),
      posted('1.000002', 20),
      posted('1.000003', 30),
      posted('1.000004', 40),
      posted('1.000005', 50),
      {
        method: 'chat.postEphemeral',
        args: { channel: 'C0INC', user: 'U0ONCALL', text: ':no_entry: not yours' },
        status: 200,
        response: { ok: true },
        at: 45,
      },
    ];
    const [channel, ...others] = buildView({
      calls,
      messages,
      ephemerals: ephemeralCalls(calls),
      channels: { C0INC: '#incidents', C0ALERTS: '#alerts' },
      userName: (id) => `@${id}`,
    });
    expect(others.map((c) => [c.name, c.items.length])).toEqual([['#alerts', 0]]);
    expect(channel?.items.map((i) => i.key)).toEqual([
      'C0INC/1.000001',
      'ephemeral/call-5',
      'C0INC/1.000005',
    ]);
    const root = channel?.items[0]?.node as RElement;
    expect(root.data).toMatchObject({ kind: 'message', ts: '1.000001', updates: '2', replies: '3' });
    expect(find([root], (e) => e.c === 'edited')).toHaveLength(1);
    const replies = find([root], (e) => e.data?.kind === 'message' && e.c === 'msg reply');
    expect(replies.map((r) => textOf(find([r], (e) => e.c === 'msg-body')))).toEqual([
      'report',
      'applied',
      'rolled out',
    ]);
    const ephemeral = channel?.items[1]?.node as RElement;
    expect(textOf([ephemeral])).toContain('Only visible to @U0ONCALL');
    expect(textOf([ephemeral])).toContain('⛔ not yours');
  });
});
