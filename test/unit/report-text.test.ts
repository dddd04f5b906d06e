import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { Finding } from '../../src/diagnosis/finding.js';
import { parseSchedulingMessage } from '../../src/diagnosis/scheduling/scheduling-message.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { hasProblems, toJson } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';

const target = { kind: 'Deployment' as const, namespace: 'vision', name: 'tracker' };
const message =
  "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling..";

const plan: RemediationPlan = {
  id: 'plan-abc',
  kind: 'set-rolling-update',
  target,
  summary: 'Let the old pod stop before the new one starts (maxSurge 0, maxUnavailable 1).',
  impact: 'brief outage: 1 replica of 1 goes down before the new one starts',
  warnings: ['replicas is 1'],
  patch: {
    type: 'strategic-merge',
    body: { spec: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } } },
  },
  preconditions: { uid: 'u', generation: 3, fields: [] },
  inverse: { type: 'strategic-merge', body: { spec: { strategy: { rollingUpdate: { maxSurge: '25%' } } } } },
  addresses: 'RolloutSurgeDeadlock',
};

const finding: Finding = {
  code: 'RolloutSurgeDeadlock',
  severity: 'critical',
  summary: 'The new pod waits for the GPU its own old pod holds on gpu-node-1.',
  explanation: 'kubectl rollout status says "old replicas are pending termination", but they never will be.',
  remediations: ['plan-abc'],
  evidence: [
    { type: 'scheduling', pod: 'tracker-new', message, parsed: parseSchedulingMessage(message) },
    {
      type: 'strategy',
      replicas: 1,
      strategy: {
        type: 'RollingUpdate',
        maxSurge: { raw: '25%', value: 1, source: 'default' },
        // Owned only by an Update manager (kubectl create): equal to the default, origin unknown.
        maxUnavailable: { raw: '25%', value: 0, source: 'unknown' },
      },
    },
    {
      type: 'node-capacity',
      rows: [
        {
          node: 'gpu-node-1',
          resource: 'nvidia.com/gpu',
          allocatable: '1',
          used: '1',
          free: '0',
          holders: [{ pod: 'tracker-old', amount: '1', ownedByThisDeployment: true }],
        },
      ],
    },
    {
      type: 'crash-table',
      rows: [
        {
          node: 'bad-1',
          pods: 2,
          ready: 0,
          restarts: 14,
          crashing: 2,
          lastExitCode: 139,
          lastReason: 'Error',
          logTail: 'segfault\n',
        },
      ],
    },
    {
      type: 'node-diff',
      badNodes: ['bad-1'],
      goodNodes: ['good-1'],
      differences: [{ field: 'kernel', bad: '6.8', good: '6.1' }],
    },
    { type: 'condition', condition: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' },
    { type: 'pods', title: 'Pending pods', pods: [{ name: 'tracker-new', phase: 'Pending' }] },
    { type: 'log', pod: 'tracker-old', container: 'app', tail: 'line one\nline two' },
    { type: 'note', text: 'a hint' },
  ],
};

const diagnosis: Diagnosis = {
  target,
  capturedAt: '2026-11-22T03:00:00Z',
  observed: { uid: 'u', generation: 3, resourceVersion: '1' },
  findings: [finding],
  remediations: [plan],
  analyzerErrors: [{ analyzer: 'broken', message: 'boom' }],
};

describe('renderText', () => {
  const text = renderText(diagnosis);

  it('puts the verdict before evidence and remediations', () => {
    const verdict = text.indexOf('[CRITICAL] RolloutSurgeDeadlock: The new pod waits');
    expect(verdict).toBeGreaterThan(0);
    expect(verdict).toBeLessThan(text.indexOf('Evidence'));
    expect(text.indexOf('Evidence')).toBeLessThan(text.indexOf('Remediations'));
    expect(text).toContain('old replicas are pending termination');
  });

  it('renders every evidence type', () => {
    expect(text).toMatch(/1\s+Insufficient nvidia.com\/gpu\s+resources \(nvidia.com\/gpu\)/);
    expect(text).toMatch(/9\s+node\(s\) didn't match Pod's node affinity\/selector\s+node-selection/);
    expect(text).toMatch(/maxSurge\s+25%\s+-> 1\s+\(Kubernetes default, not set in the manifest\)/);
    expect(text).toMatch(/maxUnavailable\s+25%\s+-> 0\s+\(default value\)/);
    expect(text).not.toContain('set explicitly');
    expect(text).toContain('prints the percentages unresolved');
    expect(text).toMatch(/gpu-node-1\s+nvidia.com\/gpu\s+1\s+1\s+0\s+tracker-old \(1, ours\)/);
    expect(text).toMatch(/bad-1\s+2\s+0\s+2\s+14\s+139\s+Error/);
    expect(text).toContain('segfault');
    expect(text).toMatch(/kernel\s+6.8\s+6.1/);
    expect(text).toContain('Condition Progressing=False (ProgressDeadlineExceeded)');
    expect(text).toMatch(/tracker-new\s+-\s+Pending/);
    expect(text).toContain('line two');
    expect(text).toContain('Note: a hint');
  });

  it('prints each remediation with impact, warnings and the exact patch and undo', () => {
    expect(text).toContain('[1] set-rolling-update');
    expect(text).toContain('Fix: [1] set-rolling-update (best first; see Remediations)');
    expect(text).toContain('Impact: brief outage');
    expect(text).toContain('Warning: replicas is 1');
    const patch = text.slice(text.indexOf('Patch (strategic-merge patch):'), text.indexOf('Undo ('));
    expect(JSON.parse(patch.slice(patch.indexOf('{')))).toEqual(plan.patch?.body);
    expect(text).toContain('broken: boom');
  });

  it('uses ANSI colours only when asked', () => {
    expect(text).not.toContain('\u001b[');
    expect(renderText(diagnosis, { color: true })).toContain('\u001b[31m[CRITICAL]');
  });

  it('says plainly when there is no problem', () => {
    const clean = renderText({ ...diagnosis, findings: [], remediations: [], analyzerErrors: [] });
    expect(clean).toContain('No problem found.');
    expect(clean).not.toContain('Remediations');
  });
});

describe('toJson', () => {
  it('follows the DESIGN.md §3 shape', () => {
    const json = toJson(diagnosis);
    expect(json.target).toEqual({ kind: 'Deployment', namespace: 'vision', name: 'tracker' });
    expect(json.findings[0]).toMatchObject({
      code: 'RolloutSurgeDeadlock',
      severity: 'critical',
      summary: finding.summary,
    });
    expect(json.findings[0]?.evidence).toHaveLength(9);
    expect(json.remediations[0]).toMatchObject({
      id: 'plan-abc',
      kind: 'set-rolling-update',
      patch: plan.patch,
    });
    expect(json.problemsFound).toBe(true);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('counts only critical and warning findings as problems', () => {
    expect(hasProblems({ ...diagnosis, findings: [{ ...finding, severity: 'info' }] })).toBe(false);
    expect(hasProblems({ ...diagnosis, findings: [{ ...finding, severity: 'warning' }] })).toBe(true);
  });
});

describe('renderText: what guards the workload and was not read', () => {
  const coverage = {
    replicaSets: 'complete' as const,
    pods: 'complete' as const,
    events: 'complete' as const,
    nodes: 'complete' as const,
    podsReadOn: 'all' as const,
    gaps: [
      {
        about: 'podDisruptionBudgets' as const,
        what: 'PodDisruptionBudgets in vision',
        reason: 'forbidden' as const,
        settle: 'grant list on poddisruptionbudgets.policy in vision',
      },
      {
        about: 'quotas' as const,
        what: 'ResourceQuotas in vision',
        reason: 'forbidden' as const,
        settle: 'x',
      },
    ],
  };

  it('names each unread guard under the fixes it could not check them against', () => {
    const text = renderText({ ...diagnosis, coverage });
    const at = text.indexOf('Not checked against (not read, so unknown, not absent):');
    expect(at).toBeGreaterThan(text.indexOf('Remediations'));
    expect(text.slice(at)).toContain(
      'PodDisruptionBudgets: not read (forbidden): grant list on poddisruptionbudgets.policy in vision',
    );
    expect(text.slice(at)).not.toContain('ResourceQuotas');
  });

  it('look-alike: every guard read, or no fix offered, says nothing of them', () => {
    expect(renderText({ ...diagnosis, coverage: { ...coverage, gaps: [] } })).not.toContain(
      'Not checked against',
    );
    expect(renderText({ ...diagnosis, remediations: [], coverage })).not.toContain('Not checked against');
  });
});
