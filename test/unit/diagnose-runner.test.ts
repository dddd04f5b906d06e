import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../../src/diagnosis/analyzer.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { makeDeployment, makeSnapshot } from '../support/k8s-builders.js';

const snapshot = makeSnapshot({ deployment: makeDeployment('web', { namespace: 'shop' }) });

describe('diagnose runner', () => {
  it('keeps the other analyzers results when one throws', () => {
    const broken: Analyzer = {
      name: 'broken',
      analyze: () => {
        throw new Error('boom');
      },
    };
    const working: Analyzer = {
      name: 'working',
      analyze: () => [{ code: 'CrashLoop', severity: 'critical', summary: 'crashes', evidence: [] }],
    };
    const result = diagnose(snapshot, { analyzers: [broken, working], planBuilders: {} });
    expect(result.analyzerErrors).toEqual([{ analyzer: 'broken', message: 'boom' }]);
    expect(result.findings.map((f) => f.code)).toEqual(['CrashLoop']);
    expect(result.target).toEqual({ kind: 'Deployment', namespace: 'shop', name: 'web' });
  });

  it('links plans to findings and lists each plan once', () => {
    const twice: Analyzer = {
      name: 'twice',
      analyze: () => [
        { code: 'CrashLoop', severity: 'critical', summary: 'a', evidence: [] },
        { code: 'CrashLoop', severity: 'critical', summary: 'b', evidence: [] },
      ],
    };
    const plan = {
      id: 'p1',
      kind: 'rollout-restart' as const,
      target: snapshot.target,
      summary: 'restart',
      impact: 'none',
      warnings: [],
      patch: null,
      preconditions: { uid: 'u', generation: 1, fields: [] },
      inverse: null,
      addresses: 'CrashLoop',
    };
    const result = diagnose(snapshot, {
      analyzers: [twice],
      planBuilders: { CrashLoop: () => [plan as unknown as RemediationPlan] },
    });
    expect(result.remediations).toHaveLength(1);
    expect(result.findings.map((f) => f.remediations)).toEqual([['p1'], ['p1']]);
  });
});
