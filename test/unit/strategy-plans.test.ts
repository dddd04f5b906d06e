import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/diagnosis/finding.js';
import type { DeploymentStrategy } from '../../src/diagnosis/k8s-workloads.js';
import { buildRolloutRestartPlans } from '../../src/remediation/builders/rollout-restart.js';
import { inverseStrategyPatch, strategyPatch } from '../../src/remediation/builders/strategy-patch.js';
import {
  buildSetRecreatePlans,
  buildSetRollingUpdatePlans,
} from '../../src/remediation/builders/strategy-plans.js';
import { getAt, jsonEqual } from '../../src/remediation/json-pointer.js';
import { APPLY_TIME } from '../../src/remediation/restart-time.js';
import { makeNode } from '../support/k8s-builders.js';
import { pendingRolloutSnapshot, rollout, seedIncidentA } from '../support/rollout-scenarios.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

const deadlock: Omit<Finding, 'remediations'> = {
  code: 'RolloutSurgeDeadlock',
  severity: 'critical',
  summary: 's',
  evidence: [],
};

/** Strategic merge for plain maps: objects merge, null deletes, scalars replace. */
function merge(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as object) } : {};
  const out = base as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete out[key];
    else out[key] = merge(out[key], value);
  }
  return out;
}

describe('set-rolling-update for seed incident A', () => {
  const snapshot = seedIncidentA();
  const [plan] = buildSetRollingUpdatePlans(new AnalysisContext(snapshot), deadlock);

  it('patches the strategy and restarts in one strategic-merge patch', () => {
    expect(plan?.patch).toEqual({
      type: 'strategic-merge',
      body: {
        spec: {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
          template: {
            metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': APPLY_TIME } },
          },
        },
      },
    });
    expect(plan?.id).toMatch(/^set-rolling-update-[0-9a-f]{16}$/);
  });

  it('says the outage plainly at one replica', () => {
    expect(plan?.impact).toContain('brief outage: 1 of 1 replicas down until the new pod is Ready');
  });

  it('pins uid, generation and the strategy it assumed', () => {
    expect(plan?.preconditions.uid).toBe(snapshot.deployment.metadata.uid);
    expect(plan?.preconditions.generation).toBe(4);
    const fields = plan?.preconditions.fields ?? [];
    for (const field of fields)
      expect(jsonEqual(getAt(snapshot.deployment, field.path), field.value)).toBe(true);
    expect(fields.map((f) => f.path)).toContain('/spec/strategy');
  });

  it('undo restores the exact previous strategy', () => {
    expect(plan?.inverse).toEqual({
      type: 'strategic-merge',
      body: {
        spec: {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        },
      },
    });
  });
});

describe('set-recreate', () => {
  it('clears rollingUpdate (Recreate forbids it), restarts, and warns about full outages', () => {
    const [plan] = buildSetRecreatePlans(new AnalysisContext(seedIncidentA()), deadlock);
    const body = plan?.patch?.body as { spec: { strategy: unknown } };
    expect(body.spec.strategy).toEqual({ type: 'Recreate', rollingUpdate: null });
    expect(plan?.impact).toContain('outage');
    expect(plan?.warnings.join(' ')).toContain('full outage');
  });
});

describe('impact with more replicas', () => {
  it('says how many replicas are down at a time', () => {
    const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n));
    const parts = rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2', 'edge-3'],
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
    });
    const snapshot = pendingRolloutSnapshot(
      parts,
      nodes,
      "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.",
    );
    const [plan] = buildSetRollingUpdatePlans(new AnalysisContext(snapshot), deadlock);
    expect(plan?.impact).toContain('1 of 3 replicas down at a time');
    expect(plan?.impact).toContain('the other 2 keep serving');
  });
});

describe('safety rules', () => {
  it('never proposes a strategy change when the pod would not fit on an emptied eligible node', () => {
    const snapshot = seedIncidentA({ newNodeSelector: 'cpu-node-3' });
    expect(buildSetRollingUpdatePlans(new AnalysisContext(snapshot), deadlock)).toEqual([]);
    expect(buildSetRecreatePlans(new AnalysisContext(snapshot), deadlock)).toEqual([]);
    const atRisk = { ...deadlock, code: 'RolloutAtRisk' as const };
    expect(buildSetRollingUpdatePlans(new AnalysisContext(snapshot), atRisk)).toEqual([]);
  });

  it('never proposes it for a finding code it does not address', () => {
    expect(
      buildSetRollingUpdatePlans(new AnalysisContext(seedIncidentA()), {
        ...deadlock,
        code: 'Unschedulable',
      }),
    ).toEqual([]);
  });

  it('never drops strategy fields the user set; undo restores the exact strategy (property)', () => {
    const intOrPercent = fc.oneof(
      fc.integer({ min: 0, max: 10 }),
      fc.integer({ min: 0, max: 100 }).map((p) => `${p}%`),
    );
    const strategies = fc.oneof(
      fc.record(
        {
          type: fc.constant('RollingUpdate'),
          rollingUpdate: fc.record(
            { maxSurge: intOrPercent, maxUnavailable: intOrPercent, futureKnob: fc.string() },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
      fc.constant({ type: 'Recreate' }),
    );
    fc.assert(
      fc.property(strategies, fc.boolean(), (previous, recreate) => {
        const spec = { replicas: 1, strategy: structuredClone(previous) as DeploymentStrategy };
        const patch = strategyPatch({
          strategy: recreate
            ? { type: 'Recreate' }
            : { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        });
        const after = merge({ spec }, patch.body) as {
          spec: { strategy: DeploymentStrategy & { rollingUpdate?: Record<string, unknown> } };
        };
        const before = previous as { rollingUpdate?: Record<string, unknown> };
        if (!recreate && before.rollingUpdate && 'futureKnob' in before.rollingUpdate) {
          expect(after.spec.strategy.rollingUpdate?.futureKnob).toBe(before.rollingUpdate.futureKnob);
        }
        const undone = merge(after, inverseStrategyPatch(previous as DeploymentStrategy).body) as {
          spec: { strategy: unknown };
        };
        const expected = structuredClone(previous) as Record<string, unknown>;
        const restored = structuredClone(undone.spec.strategy) as Record<string, unknown>;
        // Fields absent before come back absent (null deletes them; the server re-defaults).
        expect(restored).toEqual(expected);
      }),
    );
  });
});

describe('rollout-restart', () => {
  it('refuses while the surge deadlock stands: a restart would recreate the same Pending pod', () => {
    expect(buildRolloutRestartPlans(new AnalysisContext(seedIncidentA()), deadlock)).toEqual([]);
  });

  it('sets restartedAt to the apply-time marker, with no inverse, once nothing is deadlocked', () => {
    const snapshot = seedIncidentA();
    snapshot.deployment.spec.strategy = {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
    };
    const [plan] = buildRolloutRestartPlans(new AnalysisContext(snapshot), {
      ...deadlock,
      code: 'CrashLoop',
    });
    expect(plan?.patch).toEqual({
      type: 'strategic-merge',
      body: {
        spec: {
          template: {
            metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': APPLY_TIME } },
          },
        },
      },
    });
    expect(plan?.inverse).toBeNull();
    expect(plan?.impact).toContain('0 extra and 1 unavailable');
  });
});
