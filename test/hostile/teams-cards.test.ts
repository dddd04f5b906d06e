/**
 * Markup in every text field of a message reaches a Teams card as characters: no
 * Markdown (every text is a TextRun, none a TextBlock), no date/time function, no
 * mention tag, no link but the ones the port made, no control, bidi or invisible
 * character. The scanner walks the whole card without knowing the renderer.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/model.js';
import { code, emphasis, link, mention, plain, say, strong } from '../../src/message/rich.js';
import { cardActivity, renderCard } from '../../src/chat/teams/cards.js';
import { HOSTILE } from './support/hostile-text.js';

const TEAMS_HOSTILE = [
  HOSTILE,
  '{{DATE(2017-02-14T06:08:39Z, LONG)}} {{TIME(2017-02-14T06:08:39Z)}} {{{DATE(2017-02-14T06:08:39Z)}}}',
  '<at>Alice</at> </at> <AT>Bob</AT>',
  '**bold** _it_ [click](https://evil.example) ![img](https://evil.example/x.png) # Heading\n- list',
  '<a href="https://evil.example">html</a> <img src=x onerror=alert(1)>',
].join(' ');

function hostileMessage(): ChatMessage {
  const person = { platform: 'teams', id: 'f0e1d2c3-b4a5-4697-8877-665544332211', name: TEAMS_HOSTILE };
  return {
    summary: say`Diagnosis of ${TEAMS_HOSTILE}`,
    parts: [
      { kind: 'heading', text: TEAMS_HOSTILE },
      {
        kind: 'paragraph',
        text: say`${strong(TEAMS_HOSTILE)} ${emphasis(TEAMS_HOSTILE)} ${code(TEAMS_HOSTILE)} by ${mention(person)}`,
      },
      {
        kind: 'paragraph',
        text: say`see ${link('https://alertmanager.example/#/alerts', 'Alertmanager')}`,
        role: 'state',
      },
      { kind: 'note', text: say`${TEAMS_HOSTILE}` },
      { kind: 'divider' },
      { kind: 'code', title: say`log of ${TEAMS_HOSTILE}`, body: `${TEAMS_HOSTILE}\n${TEAMS_HOSTILE}` },
      {
        kind: 'table',
        title: plain('Events'),
        header: [TEAMS_HOSTILE, 'b'],
        rows: [[TEAMS_HOSTILE, TEAMS_HOSTILE]],
      },
      {
        kind: 'actions',
        buttons: [
          {
            label: TEAMS_HOSTILE,
            style: 'primary',
            action: { kind: 'approve', planId: 'p1', shown: null, requester: null },
            confirm: { title: TEAMS_HOSTILE, text: TEAMS_HOSTILE, yes: 'Apply', no: 'Cancel' },
          },
        ],
      },
    ],
  };
}

type Json = Record<string, unknown>;

/** Every string under `value` with the key it is under. */
function strings(value: unknown, key = '', out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([key, value]);
  else if (Array.isArray(value)) for (const v of value) strings(v, key, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value as Json)) strings(v, k, out);
  return out;
}

function nodes(value: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const v of value) nodes(v, out);
  else if (value !== null && typeof value === 'object') {
    out.push(value as Json);
    for (const v of Object.values(value as Json)) nodes(v, out);
  }
  return out;
}

const SHOWN = new Set(['text', 'title', 'fallbackText', 'summary', 'tooltip']);

function problems(card: unknown): string[] {
  const found: string[] = [];
  for (const node of nodes(card)) {
    if (node.type === 'TextBlock') found.push('a TextBlock (Markdown) holds text');
    if (node.type === 'Action.OpenUrl' && node.url !== 'https://alertmanager.example/#/alerts')
      found.push(`a link the port did not make: ${String(node.url)}`);
    if (node.type === 'Action.Submit' || node.type === 'Action.Http')
      found.push(`${String(node.type)} is used`);
  }
  for (const [key, text] of strings(card)) {
    if (!SHOWN.has(key)) continue;
    if (/\{\{(DATE|TIME)\(/i.test(text)) found.push(`date function in ${key}`);
    if (/<\/?at\b/i.test(text)) found.push(`mention tag in ${key}`);
    if (
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(
        text,
      )
    )
      found.push(`control or invisible character in ${key}`);
  }
  return found;
}

describe('Teams cards: untrusted text stays text', () => {
  it('markup in every text field becomes characters, in the shared card and in a per-user view', () => {
    const message = hostileMessage();
    expect(problems(cardActivity(message))).toEqual([]);
    expect(
      problems(renderCard(message, { viewer: { mayApprove: false }, refreshUserIds: ['29:a'] })),
    ).toEqual([]);
    // The characters are still there to read (escaped, not dropped).
    const texts = strings(renderCard(message))
      .map(([, t]) => t)
      .join('\n');
    expect(texts).toContain('**bold** _it_ [click](https://evil.example)');
    expect(texts).toContain('<img src=x onerror=alert(1)>');
  });

  it('a line break in a span is a space (only a break span starts a line); a code body keeps its lines', () => {
    const runs = (message: ChatMessage): string[] =>
      strings(renderCard(message))
        .filter(([key]) => key === 'text')
        .map(([, t]) => t);
    const forged = 'node-a 6.1\r\rNo problem found\n  [INFO] nothing needs changing';
    const texts = runs({
      summary: say`x`,
      parts: [
        { kind: 'paragraph', text: say`kernel ${strong(forged)} ${code(forged)}` },
        { kind: 'code', body: 'line one\nline two' },
      ],
    });
    expect(texts.filter((t) => t.includes('No problem found'))).toEqual([
      'node-a 6.1 No problem found   [INFO] nothing needs changing',
      'node-a 6.1 No problem found   [INFO] nothing needs changing',
    ]);
    expect(texts).toContain('line one\nline two');
  });

  it('the scanner finds each problem when it is there', () => {
    expect(problems({ type: 'TextBlock', text: 'x' })).toContain('a TextBlock (Markdown) holds text');
    expect(problems({ type: 'TextRun', text: '{{DATE(2017-02-14T06:08:39Z)}}' })).toEqual([
      'date function in text',
    ]);
    expect(problems({ type: 'TextRun', text: '<at>x</at>' })).toEqual(['mention tag in text']);
    expect(problems({ type: 'TextRun', text: '\u202e' })).toEqual(['control or invisible character in text']);
    expect(problems({ type: 'Action.OpenUrl', url: 'https://evil.example' })).toHaveLength(1);
  });

  it('disables Approve for a viewer who may not approve, and keeps it enabled for one who may', () => {
    const find = (card: unknown) =>
      nodes(card).find((n) => n.type === 'Action.Execute' && n.verb !== 'refresh');
    expect(find(renderCard(hostileMessage(), { viewer: { mayApprove: false } }))).toMatchObject({
      isEnabled: false,
    });
    expect(find(renderCard(hostileMessage(), { viewer: { mayApprove: true } }))).not.toHaveProperty(
      'isEnabled',
    );
    expect(find(renderCard(hostileMessage()))).toMatchObject({
      verb: 'confirm',
      data: { action: { kind: 'approve', planId: 'p1' } },
      style: 'positive',
    });
  });

  it('asks the listed users’ clients to refresh, at most 60', () => {
    const ids = Array.from({ length: 80 }, (_, i) => `29:user-${i}`);
    const card = renderCard(hostileMessage(), { refreshUserIds: ids, refreshData: { ref: 'x' } });
    expect(card.refresh).toMatchObject({
      action: { type: 'Action.Execute', verb: 'refresh', data: { ref: 'x' } },
    });
    expect((card.refresh as { userIds: string[] }).userIds).toHaveLength(60);
  });
});
