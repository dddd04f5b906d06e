/**
 * The plan gate's "never the strategy the workload already has", for each kind where
 * it keeps its strategy (a Deployment's spec.strategy, a DaemonSet's
 * spec.updateStrategy): the same values are refused, other values are not.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { planRefusal } from '../../src/engine/plan-gate.js';
import { strategyPatch, type StrategyField } from '../../src/remediation/builders/strategy-patch.js';
import type { WorkloadPatchPlan } from '../../src/remediation/plan.js';
import { makeDaemonSet, makeDaemonSetSnapshot } from '../support/daemonset-builders.js';
import { makeDeployment, makeSnapshot } from '../support/k8s-builders.js';

const SAME = 'it would set the strategy the workload already has';

function plan(
  snapshot: WorkloadSnapshot,
  kind: 'set-rolling-update' | 'set-recreate',
  field: StrategyField,
  values = { maxSurge: 0, maxUnavailable: 1 },
): WorkloadPatchPlan {
  return {
    id: 'p',
    kind,
    target: snapshot.target,
    summary: '',
    impact: '',
    warnings: [],
    preconditions: { uid: '', generation: 1, fields: [] },
    addresses: 'RolloutSurgeDeadlock',
    patch: strategyPatch(
      {
        strategy:
          kind === 'set-recreate' ? { type: 'Recreate' } : { type: 'RollingUpdate', rollingUpdate: values },
      },
      field,
    ),
    inverse: null,
  };
}

const refusal = (snapshot: WorkloadSnapshot, p: WorkloadPatchPlan): string | undefined =>
  planRefusal(new AnalysisContext(snapshot), 'RolloutAtRisk', p);

const rolling = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };

describe('the plan gate: never the strategy the workload already has', () => {
  const kinds: [string, WorkloadSnapshot, StrategyField][] = [
    ['Deployment', makeSnapshot({ deployment: makeDeployment('web', { strategy: rolling }) }), 'strategy'],
    [
      'DaemonSet',
      makeDaemonSetSnapshot({
        daemonSet: makeDaemonSet('agent', { updateStrategy: rolling }),
        controllerRevisions: [],
      }),
      'updateStrategy',
    ],
  ];

  it.each(kinds)(
    '%s: the same maxSurge and maxUnavailable are refused, others are not',
    (_kind, snapshot, field) => {
      expect(refusal(snapshot, plan(snapshot, 'set-rolling-update', field))).toBe(SAME);
      expect(
        refusal(snapshot, plan(snapshot, 'set-rolling-update', field, { maxSurge: 1, maxUnavailable: 0 })),
      ).toBeUndefined();
    },
  );

  it('Recreate on a workload that already recreates is refused; on a rolling one it is not', () => {
    const recreating = makeSnapshot({
      deployment: makeDeployment('web', { strategy: { type: 'Recreate' } }),
    });
    expect(refusal(recreating, plan(recreating, 'set-recreate', 'strategy'))).toBe(SAME);
    const rollingOne = makeSnapshot({ deployment: makeDeployment('web', { strategy: rolling }) });
    expect(refusal(rollingOne, plan(rollingOne, 'set-recreate', 'strategy'))).toBeUndefined();
  });
});
