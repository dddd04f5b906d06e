/** The text report (CLI and the Slack thread's full report) prints a log tail once. */
import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { Finding, NodeCrashRow } from '../../src/diagnosis/finding.js';
import { renderText } from '../../src/report/text.js';

const target = { kind: 'Deployment' as const, namespace: 'shop', name: 'checkout' };
const TAIL = [
  '2026-11-22T21:40:03Z starting checkout-api 4.2.0',
  '2026-11-22T21:40:03Z loading model weights (AVX2 kernels)',
  'Fatal Python error: Illegal instruction',
].join('\n');
const POD = 'checkout-7d9c5b8f6d-x2kqp';

const rows: NodeCrashRow[] = [
  { node: 'node-a', pods: 1, ready: 1, crashing: 0, restarts: 0 },
  {
    node: 'node-b',
    pods: 1,
    ready: 0,
    crashing: 1,
    restarts: 7,
    lastExitCode: 132,
    lastReason: 'Error',
    logTail: `${TAIL}\n`,
  },
  { node: 'node-c', pods: 1, ready: 1, crashing: 0, restarts: 0 },
];

const onNode: Finding = {
  code: 'CrashLoopOnNode',
  severity: 'critical',
  summary: 'checkout crash-loops only on node node-b (1 of 3 pods; last exit code 132 (Error)).',
  remediations: [],
  evidence: [
    { type: 'crash-table', rows },
    { type: 'node-diff', badNodes: ['node-b'], goodNodes: ['node-a', 'node-c'], differences: [] },
    { type: 'log', pod: POD, container: 'api', tail: TAIL },
  ],
};

const probe: Finding = {
  code: 'ProbeFailure',
  severity: 'warning',
  summary: 'The liveness probe of api fails on checkout-7d9c5b8f6d-x2kqp.',
  remediations: [],
  evidence: [{ type: 'log', pod: POD, container: 'api', tail: TAIL }],
};

const diagnosis = (findings: Finding[]): Diagnosis =>
  ({
    target,
    capturedAt: '2026-11-22T21:45:00Z',
    findings,
    remediations: [],
    analyzerErrors: [],
  }) as unknown as Diagnosis;

const count = (text: string, needle: string): number => text.split(needle).length - 1;

describe('text report: log tails', () => {
  it('prints the crashing pod’s log tail once, under its pod and container', () => {
    const text = renderText(diagnosis([onNode]));
    expect(count(text, 'Fatal Python error: Illegal instruction')).toBe(1);
    expect(text).toContain(`Previous log of ${POD}/api:`);
    expect(text).toMatch(/node-b +1 +0 +1 +7 +132 +Error/);
  });

  it('a second finding backed by the same log points back instead of repeating it', () => {
    const text = renderText(diagnosis([onNode, probe]));
    expect(count(text, 'loading model weights (AVX2 kernels)')).toBe(1);
    expect(text).toContain(`Previous log of ${POD}/api: the lines shown in finding 1 (${POD}/api).`);
  });

  it('keeps a row’s own tail when no log evidence carries it (several nodes, several logs)', () => {
    const other = 'panic: runtime error: invalid memory address';
    const text = renderText(
      diagnosis([
        {
          ...onNode,
          evidence: [
            {
              type: 'crash-table',
              rows: [
                ...rows,
                { node: 'node-d', pods: 1, ready: 0, crashing: 1, restarts: 3, logTail: other },
              ],
            },
            { type: 'log', pod: POD, container: 'api', tail: TAIL },
          ],
        },
      ]),
    );
    expect(count(text, 'Illegal instruction')).toBe(1);
    expect(count(text, other)).toBe(1);
    expect(text).toContain('last log lines on node-d:');
    expect(text).not.toContain('last log lines on node-b:');
  });
});
