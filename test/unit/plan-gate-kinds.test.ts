/**
 * The plan gate (src/engine/plan-gate.ts) asks each remediation kind whether it takes
 * serving pods down (`spendsAvailability`, src/remediation/kinds/): every kind that does
 * is offered for a stuck rollout only where the forward model shows the rollout will not
 * finish by itself, and every kind that does not is never held back for it. Exercised
 * for every kind of the registry, on a surge deadlock (seed incident A: the old pod
 * holds the only GPU the new one may use) and on the same rollout with a taint the new
 * pod does not tolerate, which no old pod going away would unblock.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { availabilityMayBeSpent } from '../../src/diagnosis/forward/verdict.js';
import { planRefusal } from '../../src/engine/plan-gate.js';
import { REMEDIATION_KIND_MODULES } from '../../src/remediation/kinds/index.js';
import { REMEDIATION_KINDS, type RemediationKind, type RemediationPlan } from '../../src/remediation/plan.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';

const FORWARD =
  'run forward, the controllers finish this rollout by themselves, or it cannot finish even with the old pods gone: taking serving pods down would not help';

/** A plan of `kind` for the workload; a strategy it changes to is one the workload does not have. */
function planOf(kind: RemediationKind, target: RemediationPlan['target']): RemediationPlan {
  return {
    id: `${kind}-0123456789abcdef`,
    kind,
    target,
    summary: '',
    impact: '',
    warnings: [],
    preconditions: { uid: '', generation: 1, fields: [] },
    addresses: 'RolloutSurgeDeadlock',
    patch: {
      type: 'strategic-merge',
      body: {
        spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 3 } } },
      },
    },
    inverse: null,
  } as unknown as RemediationPlan;
}

const deadlocked = seedIncidentA();
const stuckAnyway = seedIncidentA({ trackerTaint: true });

describe('the plan gate, for every remediation kind', () => {
  it('has the two situations it tells apart', () => {
    expect(availabilityMayBeSpent(new AnalysisContext(deadlocked))).toBe(true);
    expect(availabilityMayBeSpent(new AnalysisContext(stuckAnyway))).toBe(false);
  });

  it('holds back at least the kinds that stop old pods first, and lets the others through', () => {
    const spending = REMEDIATION_KINDS.filter((k) => REMEDIATION_KIND_MODULES[k].spendsAvailability);
    expect(spending).toEqual(expect.arrayContaining(['set-recreate', 'scale-old-replicaset', 'delete-pods']));
    expect(spending.length).toBeLessThan(REMEDIATION_KINDS.length);
  });

  it.each(REMEDIATION_KINDS)(
    '%s: held back where taking pods down would not help, only if it spends availability',
    (kind) => {
      const spends = REMEDIATION_KIND_MODULES[kind].spendsAvailability;
      const where = (
        snapshot: typeof deadlocked | typeof stuckAnyway,
        code: 'RolloutSurgeDeadlock' | 'RolloutAtRisk',
      ) => planRefusal(new AnalysisContext(snapshot), code, planOf(kind, snapshot.target));
      expect(where(stuckAnyway, 'RolloutSurgeDeadlock')).toBe(spends ? FORWARD : undefined);
      // A deadlock the model proves: offered.
      expect(where(deadlocked, 'RolloutSurgeDeadlock')).toBeUndefined();
      // RolloutAtRisk plans change the next rollout only: never held back for this.
      expect(where(stuckAnyway, 'RolloutAtRisk')).toBeUndefined();
    },
  );
});
