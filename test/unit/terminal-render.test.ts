/**
 * The command line is a third renderer of the port's message model (issue 55.4): the
 * terminal renderer (src/report/terminal.ts) cleans every text span, title, table cell
 * and code body of terminal control sequences, as the Slack adapter escapes mrkdwn, so
 * only its own styling reaches the terminal; and one switch over the evidence variants
 * is left (src/message/evidence.ts), which Slack, Teams and the CLI all render.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContentPart } from '../../src/message/model.js';
import { code, mention, say, strong } from '../../src/message/rich.js';
import { evidenceParts } from '../../src/message/evidence.js';
import type { Evidence } from '../../src/diagnosis/finding.js';
import { makeStyle } from '../../src/report/format.js';
import { renderEvidence, terminalLines } from '../../src/report/terminal.js';
import { sourceFiles } from '../support/source-files.js';

/** OSC 52 (clipboard write), OSC 8 (a link), CSI (clear screen, colour), C1 CSI, a bidi override. */
const HOSTILE =
  'ok\u001b]52;c;cm0gLXJmIC8=\u0007\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\\u001b[2J\u001b[31mred\u009b0m\u202egnp.exe';

/** Every escape or C1 control, and bidi override, in `text`. */
const controls = (text: string): string[] =>
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  [...text.matchAll(/[\u001b\u0080-\u009f\u202a-\u202e\u2066-\u2069]/g)].map((m) => m[0]);

describe('the terminal renderer of port messages', () => {
  const parts: ContentPart[] = [
    { kind: 'heading', text: HOSTILE },
    {
      kind: 'paragraph',
      text: say`${strong(HOSTILE)} and ${code(HOSTILE)} for ${mention({ platform: 'slack', id: 'U1', name: HOSTILE })}: ${HOSTILE}`,
    },
    { kind: 'note', text: say`${HOSTILE}` },
    { kind: 'code', title: say`${HOSTILE}`, body: `${HOSTILE}\n${HOSTILE}` },
    { kind: 'table', title: say`${HOSTILE}`, header: ['node', 'message'], rows: [[HOSTILE, HOSTILE]] },
  ];

  it('lets no control sequence of cluster text through, styled or not', () => {
    const plainLines = terminalLines(parts, makeStyle(false));
    expect(controls(plainLines.join('\n'))).toEqual([]);
    expect(plainLines.join('\n')).toContain('okclickredgnp.exe');
    // With colour, the only escapes are our own bold on and off.
    const coloured = terminalLines(parts, makeStyle(true)).join('\n');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(coloured.replace(/\u001b\[(1|22)m/g, '')).toBe(plainLines.join('\n'));
    expect(coloured).toContain('\u001b[1m');
  });

  it('sets a table under its title with its columns in capitals, and a code body under its own', () => {
    const lines = terminalLines(
      [
        { kind: 'table', title: say`Pods per node`, header: ['node', 'last exit'], rows: [['gpu-1', '132']] },
        { kind: 'code', title: say`Previous log of p/c`, body: 'line one\nline two\n' },
      ],
      makeStyle(false),
    );
    expect(lines).toEqual([
      'Pods per node:',
      '  NODE   LAST EXIT',
      '  gpu-1  132',
      'Previous log of p/c:',
      '  line one',
      '  line two',
    ]);
  });

  it('renders evidence from the port’s parts: what Slack and Teams show, the CLI shows', () => {
    const evidence: Evidence = {
      type: 'quota',
      quota: `gpu-quota${HOSTILE}`,
      rows: [
        { resource: 'requests.nvidia.com/gpu', hard: '4', used: '4', ours: '1', others: '3', requested: '1' },
      ],
    } as Evidence;
    const lines = renderEvidence(evidence, makeStyle(false));
    expect(lines).toEqual(terminalLines(evidenceParts(evidence), makeStyle(false)));
    expect(lines[0]).toBe('ResourceQuota gpu-quotaokclickredgnp.exe, as its refusal counted it:');
    expect(lines[1]).toMatch(/^ {2}RESOURCE +HARD +USED +THIS WORKLOAD +OTHERS +NEW POD ASKS$/);
  });
});

describe('one switch over the evidence variants', () => {
  it('only src/message/evidence.ts switches over them', () => {
    const root = resolve(import.meta.dirname, '../..');
    // Cases only an Evidence switch has (no other union in src/ names these three).
    const switching = sourceFiles('src').filter((f) => {
      const text = readFileSync(join(root, f), 'utf8');
      return ["case 'node-capacity'", "case 'crash-table'", "case 'node-diff'"].every((c) =>
        text.includes(c),
      );
    });
    expect(switching).toEqual(['src/message/evidence.ts']);
  });
});
