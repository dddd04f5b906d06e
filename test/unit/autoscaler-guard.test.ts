/**
 * The HorizontalPodAutoscaler that sets a workload's replicas is named (issue 63.4): the
 * verdict on its rollout says what it does next, and a plan whose arithmetic turns on
 * spec.replicas says the count it was run forward at and what the autoscaler does to it.
 * Each arm of what it does next (scale up, scale down after its window, hold, cannot
 * scale, no metrics, held at a limit) and the workload without one.
 */
import { describe, expect, it } from 'vitest';
import type { Condition } from '../../src/diagnosis/k8s.js';
import type { HorizontalPodAutoscaler } from '../../src/diagnosis/k8s-policy.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { edgeIngress } from '../support/rollout-scenarios.js';
import { makeNode } from '../support/k8s-builders.js';

function hpa(
  status: HorizontalPodAutoscaler['status'],
  spec: Partial<HorizontalPodAutoscaler['spec']> = {},
): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'ingress-hpa', namespace: 'vision' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ingress' },
      minReplicas: 2,
      maxReplicas: 6,
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

const cond = (type: string, status: 'True' | 'False', reason: string): Condition => ({
  type,
  status,
  reason,
});

/** The three-node hostPort ingress (3 replicas) deadlocked, under `autoscaler`. */
function under(autoscaler?: HorizontalPodAutoscaler): DeploymentSnapshot {
  return {
    ...edgeIngress(),
    guards: { podDisruptionBudgets: [], horizontalPodAutoscalers: autoscaler ? [autoscaler] : [] },
  };
}

function notes(
  snapshot: DeploymentSnapshot,
  code = 'RolloutSurgeDeadlock',
): { verdict: string[]; plan: string[]; summary: string } {
  const d = diagnose(snapshot);
  const lead = d.findings.find((f) => f.code === code);
  const verdict = (lead?.evidence ?? []).flatMap((e) => (e.type === 'note' ? [e.text] : []));
  const rolling = d.remediations.find((p) => p.kind === 'set-rolling-update');
  return {
    verdict: verdict.filter((t) => t.includes('HorizontalPodAutoscaler')),
    plan: rolling?.warnings ?? [],
    summary: lead?.summary ?? '',
  };
}

describe('the autoscaler that sets the replicas, named', () => {
  it('none: nothing is said of one', () => {
    const { verdict, plan } = notes(under());
    expect(verdict).toEqual([]);
    expect(plan.join(' ')).not.toContain('HorizontalPodAutoscaler');
  });

  it('scaling up next: run forward at 5, where 2 of the 5 hostPort pods fit none of the 3 nodes', () => {
    // A scale-up is written at once: the controllers roll out at 5 (autoscaler-scale-up-forward.test.ts).
    const { verdict, plan, summary } = notes(
      under(hpa({ currentReplicas: 3, desiredReplicas: 5 })),
      'Unschedulable',
    );
    expect(summary).toContain(
      "can never finish at the 5 replicas HorizontalPodAutoscaler ingress-hpa sets at its next sync (spec.replicas 3): even with this workload's old pods gone, 2 of its 5 new pods fit no node",
    );
    expect(verdict).toEqual([
      'HorizontalPodAutoscaler ingress-hpa sets the replicas of deployment/ingress (min 2, max 6): it sets 5 at its next sync (3 now).',
    ]);
    // No strategy helps at 5, so no strategy plan.
    expect(plan).toEqual([]);
  });

  it('scaling up next where 5 edge nodes hold 5: the plan says it was run forward at 5', () => {
    const five = under(hpa({ currentReplicas: 3, desiredReplicas: 5 }));
    const more = ['edge-4', 'edge-5'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
    const { summary, plan } = notes({ ...five, nodes: [...five.nodes, ...more] });
    expect(summary).toContain('can never finish');
    expect(plan.join(' ')).toContain('This plan was run forward at 5 replicas, the count it sets at once');
    expect(plan.join(' ')).not.toContain('run forward at 3 replicas');
  });

  it('scaling down next: its status already holds the count after the stabilization window (reconcileAutoscaler)', () => {
    // At 2 the controller removes an old pod, which frees the hostPort the surge pod waits for.
    const { verdict, summary } = notes(
      under(hpa({ currentReplicas: 3, desiredReplicas: 2 })),
      'RolloutProgressing',
    );
    expect(summary).toContain(
      'will finish by itself at the 2 replicas HorizontalPodAutoscaler ingress-hpa sets',
    );
    expect(verdict[0]).toContain(
      'it sets 2 at its next sync (3 now): its status asks for it, so its scale-down stabilization window is already behind it',
    );
  });

  it('a recommendation outside min and max is clamped: desired 9 under max 6 sets 6', () => {
    const { verdict } = notes(
      under(
        hpa({
          currentReplicas: 3,
          desiredReplicas: 9,
          conditions: [cond('ScalingLimited', 'True', 'TooManyReplicas')],
        }),
      ),
      'Unschedulable',
    );
    expect(verdict[0]).toContain('it sets 6 at its next sync (3 now); held at a limit (TooManyReplicas)');
  });

  it('holding: the same count, and what setting replicas by hand meets', () => {
    const { verdict, plan } = notes(under(hpa({ currentReplicas: 3, desiredReplicas: 3 })));
    expect(verdict[0]).toContain('it holds 3 for now.');
    expect(plan.join(' ')).toContain(
      'setting replicas by hand is undone at its next sync unless within min 2 and max 6',
    );
  });

  it('it cannot change the scale, or has no metrics: it holds, and says why', () => {
    const stuck = notes(
      under(hpa({ desiredReplicas: 5, conditions: [cond('AbleToScale', 'False', 'FailedUpdateScale')] })),
    );
    expect(stuck.verdict[0]).toContain('it holds 3 for now: it cannot change the scale (FailedUpdateScale)');
    const blind = notes(
      under(
        hpa({ desiredReplicas: 5, conditions: [cond('ScalingActive', 'False', 'FailedGetResourceMetric')] }),
      ),
    );
    expect(blind.verdict[0]).toContain('it is not scaling (FailedGetResourceMetric)');
  });
});
