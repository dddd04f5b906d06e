import { describe, expect, it } from 'vitest';
import { renderDiagnosis } from '../../src/app/blocks/result-message.js';
import { remediationOutcomeMessage } from '../../src/app/notify/outcome-message.js';
import type { Diagnosis } from '../../src/diagnosis/diagnosis.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { blockKitViolation } from '../support/slack-standin.js';

const plan = (i: number): RemediationPlan => ({
  id: `exclude-node-${i}`,
  kind: 'exclude-node',
  target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
  summary: `Keep pods off node-${i}`,
  impact: 'pods on that node are replaced',
  warnings: [],
  patch: {
    type: 'json',
    body: [{ op: 'add', path: '/spec/template/spec/affinity', value: { x: 'y'.repeat(500) } }],
  },
  preconditions: { uid: 'u', generation: 1, fields: [] },
  inverse: null,
  addresses: 'CrashLoopOnNode',
});

function bigDiagnosis(findings: number, plans: number): Diagnosis {
  const rows = Array.from({ length: 40 }, (_, i) => ({
    node: `node-${i}-${'x'.repeat(30)}`,
    pods: 3,
    ready: 1,
    restarts: 40,
    crashing: 2,
    lastExitCode: 139,
    lastReason: 'Error',
  }));
  return {
    target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
    capturedAt: '2026-11-20T10:00:00Z',
    observed: { uid: 'u', generation: 1, resourceVersion: '1' },
    findings: Array.from({ length: findings }, (_, i) => ({
      code: 'CrashLoopOnNode' as const,
      severity: 'critical' as const,
      summary: `crash ${i} ${'s'.repeat(200)}`,
      explanation: 'e'.repeat(2000),
      evidence: [
        { type: 'crash-table' as const, rows },
        { type: 'log' as const, pod: 'p', container: 'c', tail: 'log line\n'.repeat(500) },
      ],
      remediations: [],
    })),
    remediations: Array.from({ length: plans }, (_, i) => plan(i)),
    analyzerErrors: [],
  };
}

describe('result message', () => {
  it('puts the verdict first and stays within Block Kit limits, flagging truncation', () => {
    const d = bigDiagnosis(12, 15);
    const views = Object.fromEntries(
      d.remediations.map((p) => [p.id, { state: 'open' as const, expiresAt: Date.now() + 1000 }]),
    );
    const m = renderDiagnosis({ cluster: 'default', diagnosis: d, dryRuns: {}, plans: views });
    expect(JSON.stringify(m.blocks[0])).toContain('CrashLoopOnNode');
    expect(blockKitViolation(m.blocks)).toBeUndefined();
    expect(m.truncated).toBe(true);
    expect(m.text).toContain('deployment/web in shop');
  });

  it('keeps a small result whole, with one button per plan plus Re-run and Dismiss, and marks expired plans', () => {
    const d = bigDiagnosis(1, 2);
    d.findings[0] = {
      ...d.findings[0],
      explanation: 'short',
      evidence: [{ type: 'note', text: 'n' }],
    } as Diagnosis['findings'][number];
    const m = renderDiagnosis({
      cluster: 'default',
      diagnosis: d,
      dryRuns: {},
      plans: { 'exclude-node-0': { state: 'open', expiresAt: 1 }, 'exclude-node-1': { state: 'expired' } },
    });
    expect(m.truncated).toBe(false);
    expect(blockKitViolation(m.blocks)).toBeUndefined();
    const actions = m.blocks.find((b) => b.type === 'actions') as {
      elements: { action_id: string; text: { text: string }; confirm?: unknown }[];
    };
    expect(actions.elements.map((e) => e.action_id)).toEqual([
      'approve_plan.0',
      'plan_status.1',
      'rerun_diagnosis',
      'dismiss_result',
    ]);
    expect(actions.elements[1]?.text.text).toMatch(/^Expired/);
    expect(actions.elements[1]?.confirm).toBeUndefined();
  });

  it('the stand-in refuses what Slack refuses', () => {
    expect(
      blockKitViolation([{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }]),
    ).toMatch(/3000/);
    expect(blockKitViolation(Array.from({ length: 51 }, () => ({ type: 'divider' })))).toMatch(/too many/);
  });
});

describe('verdict and outcome wording', () => {
  it('states the top finding once: as the verdict, followed by its explanation', () => {
    const diagnosis = bigDiagnosis(2, 0);
    const first = diagnosis.findings[0];
    if (!first) throw new Error('fixture has findings');
    first.explanation = 'why it happens';
    const { blocks } = renderDiagnosis({ cluster: 'default', diagnosis, dryRuns: {}, plans: {} });
    const json = JSON.stringify(blocks);
    expect(json.split('crash 0 ').length - 1).toBe(1);
    expect(json.split('crash 1 ').length - 1).toBe(1);
    expect(json).toContain('why it happens');
  });

  it('renders approvers as Slack mentions in thread replies', () => {
    const message = remediationOutcomeMessage({
      kind: 'remediation-outcome',
      planId: 'p1',
      cluster: 'default',
      channel: 'C1',
      messageTs: '1.2',
      stage: 'applied',
      detail: 'Let old pods go first <now>',
      approvedBy: ['U0LEAD', 'U0TWO'],
    });
    const section = JSON.stringify(message.blocks[0]);
    expect(section).toContain('(approved by <@U0LEAD> and <@U0TWO>)');
    expect(section).toContain('&lt;now&gt;');
    expect(message.text).toContain('approved by <@U0LEAD>');
  });
});
