/**
 * The Teams demo prints cards as text (scripts/demo/teams-render.ts): text runs per
 * block, tables as rows, buttons as [Title], and nothing a card carries may control
 * the terminal.
 */
import { describe, expect, it } from 'vitest';
import { renderActivity } from '../../scripts/demo/teams-render.js';

const card = (body: unknown[], actions: unknown[] = []) => ({
  type: 'message',
  attachments: [
    {
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: { type: 'AdaptiveCard', body, actions },
    },
  ],
});
const runs = (...texts: string[]) => ({
  type: 'RichTextBlock',
  inlines: texts.map((text) => ({ type: 'TextRun', text })),
});

describe('demo: Teams cards as terminal text', () => {
  it('joins text runs per block, renders containers, tables and Action.Execute buttons', () => {
    const lines = renderActivity(
      card([
        runs('🔴 ', 'RolloutSurgeDeadlock: ', 'stuck'),
        { type: 'Container', items: [runs('line 1\nline 2')] },
        {
          type: 'Table',
          rows: [
            {
              type: 'TableRow',
              cells: [
                { type: 'TableCell', items: [runs('node')] },
                { type: 'TableCell', items: [runs('ready')] },
              ],
            },
            {
              type: 'TableRow',
              cells: [
                { type: 'TableCell', items: [runs('node-b')] },
                { type: 'TableCell', items: [runs('0/1')] },
              ],
            },
          ],
        },
        {
          type: 'ActionSet',
          actions: [
            { type: 'Action.Execute', title: 'Apply: exclude-node' },
            { type: 'Action.Execute', title: 'Re-run' },
          ],
        },
      ]),
    );
    expect(lines).toEqual([
      '🔴 RolloutSurgeDeadlock: stuck',
      'line 1',
      'line 2',
      'node  ready',
      'node-b  0/1',
      '[Apply: exclude-node] [Re-run]',
    ]);
  });

  it('strips terminal escape sequences and control characters from runs, titles and plain text', () => {
    const hostile = 'ok\u001b]52;c;ZXZpbA==\u0007\u001b[2J\rgone\u202e\u0008';
    const lines = renderActivity(
      card([runs(hostile)], [{ type: 'Action.Execute', title: `Undo\u001b[31m\nnow` }]),
    );
    const all = lines.join('\n');
    // eslint-disable-next-line no-control-regex -- the point: no control character reaches the terminal
    expect(all).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(lines).toEqual(['ok', 'gone', '[Undo now]']);
    expect(renderActivity({ type: 'message', text: `plain\u001b]8;;http://x\u0007link` })).toEqual([
      'plainlink',
    ]);
  });
});
