/**
 * The generated-state judge's verdict on one plan (test/support/plan-judge.ts), held to
 * hand-built clusters: a plan that takes the serving pods below a PodDisruptionBudget's
 * floor at any step is harmful (the minimum is tracked at every controller pass, not
 * only at the end), unless it says it is an outage; one that swaps serving pods for pods
 * of a crashing image is harmful; one that reaches nothing is harmful; and the look-alike
 * that keeps within the floor and finishes is not.
 */
import { describe, expect, it } from 'vitest';
import type { SteppedSim } from '../../sim/stepped.js';
import { readyNode, steppedSims, webDeployment } from '../support/stepped-objects.js';
import type { GeneratedState } from '../../sim/generated-states.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { judgePlan } from '../support/plan-judge.js';

const start = steppedSims();
let sim: SteppedSim | undefined;

const deployment = webDeployment(3);
const pdb = {
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
};
const crashEverywhere = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'kube-sim', namespace: 'kube-system' },
  data: {
    'rules.yaml': JSON.stringify(['n1', 'n2'].map((n) => ({ node: n, image: 'shop/web:2', exitCode: 1 }))),
  },
};

const state = (crashImages: string[] = []): GeneratedState => ({
  seed: 0,
  kind: 'Deployment',
  namespace: 'shop',
  name: 'web',
  objects: [],
  changed: {},
  after: 0,
  description: 'hand-built',
  crashImages,
});

/** A strategy change with the next image, as the judge's executor writes a workload patch. */
const plan = (strategy: object, impact = 'replaces the pods'): RemediationPlan =>
  ({
    id: 'p',
    kind: 'set-rolling-update',
    target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
    summary: 'change the strategy',
    impact,
    warnings: [],
    patch: {
      type: 'strategic-merge',
      body: {
        spec: { strategy, template: { spec: { containers: [{ name: 'web', image: 'shop/web:2' }] } } },
      },
    },
    preconditions: { uid: '', generation: 0, fields: [] },
    inverse: null,
    addresses: 'RolloutSurgeDeadlock',
  }) as RemediationPlan;

const rolledOut = (s: SteppedSim) => () => {
  const d = s.get('Deployment', 'shop', 'web') as unknown as {
    metadata: { generation?: number };
    status?: {
      observedGeneration?: number;
      updatedReplicas?: number;
      availableReplicas?: number;
      replicas?: number;
    };
  };
  const st = d.status ?? {};
  return (
    (st.observedGeneration ?? 0) >= (d.metadata.generation ?? 0) &&
    st.updatedReplicas === 3 &&
    st.availableReplicas === 3 &&
    st.replicas === 3
  );
};

function settled(objects: object[]): SteppedSim {
  const s = start([readyNode('n1'), readyNode('n2'), deployment, ...objects]);
  expect(s.advance(120, rolledOut(s))).toBe(true);
  return s;
}

const apply =
  (p: RemediationPlan) =>
  (s: SteppedSim, written: () => void): boolean => {
    if (!p.patch) return false;
    s.patch('Deployment', 'shop', 'web', p.patch.type, p.patch.body);
    written();
    return s.advance(600, rolledOut(s));
  };

describe('the plan judge', () => {
  it('Recreate under minAvailable 2 goes to 0 serving on the way: below the floor, though it finishes', () => {
    sim = settled([pdb]);
    const recreate = plan({ type: 'Recreate', rollingUpdate: null });
    const verdict = judgePlan(sim, state(), recreate, apply(recreate));
    expect(verdict).toMatchObject({ harm: 'below-floor', startServing: 3, minServing: 0, floor: 2 });
    // The run did finish: the harm is the way there.
    expect(rolledOut(sim)()).toBe(true);
  });

  it('the same plan labelled as an outage is counted apart, not as harmful', () => {
    sim = settled([pdb]);
    const recreate = {
      ...plan({ type: 'Recreate', rollingUpdate: null }, 'Outage below the disruption budget: 2 below it.'),
      proof: { belowFloor: 2 },
    } as unknown as RemediationPlan;
    const verdict = judgePlan(sim, state(), recreate, apply(recreate));
    expect(verdict.harm).toBeUndefined();
    expect(verdict.labelledOutage).toBe(true);
  });

  it('a plan that says "outage" but not how far below the budget it goes is harmful', () => {
    sim = settled([pdb]);
    const vague = plan({ type: 'Recreate', rollingUpdate: null }, 'brief outage: the pods restart');
    expect(judgePlan(sim, state(), vague, apply(vague)).harm).toBe('below-floor');
  });

  it('look-alike: maxUnavailable 1 keeps 2 serving at every step and finishes', () => {
    sim = settled([pdb]);
    const rolling = plan({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });
    const verdict = judgePlan(sim, state(), rolling, apply(rolling));
    expect(verdict).toMatchObject({ startServing: 3, minServing: 2, floor: 2 });
    expect(verdict.harm).toBeUndefined();
  });

  it('swapping serving pods for an image already seen crashing is harmful', () => {
    sim = settled([crashEverywhere]);
    const s = sim;
    // The update starts with one surge pod of the new image; it crashes before the snapshot.
    s.patch('Deployment', 'shop', 'web', 'strategic-merge', {
      spec: { template: { spec: { containers: [{ name: 'web', image: 'shop/web:2' }] } } },
    });
    const restarted = (): boolean =>
      (
        s.list('Pod', 'shop') as unknown as { status?: { containerStatuses?: { restartCount?: number }[] } }[]
      ).some((p) => (p.status?.containerStatuses ?? []).some((c) => (c.restartCount ?? 0) > 0));
    expect(s.advance(300, restarted)).toBe(true);
    const rolling = plan({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });
    const verdict = judgePlan(s, state(['shop/web:2']), rolling, apply(rolling));
    expect(verdict.harm).toBe('crash-swap');
    expect(verdict.unforeseen).toBeUndefined();
    expect(verdict.minServing).toBeLessThan(3);
  });

  it('the same swap where no pod of the image had run yet is unforeseen, counted apart from harm', () => {
    sim = settled([crashEverywhere]);
    const rolling = plan({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });
    const verdict = judgePlan(sim, state(['shop/web:2']), rolling, apply(rolling));
    expect(verdict.harm).toBeUndefined();
    expect(verdict.unforeseen).toBe('crash-swap');
    expect(verdict.minServing).toBeLessThan(3);
  });

  it('a plan that reaches nothing is harmful', () => {
    sim = settled([]);
    const nothing = { ...plan({}), patch: null } as unknown as RemediationPlan;
    expect(judgePlan(sim, state(), nothing, apply(nothing)).harm).toBe('finishes-nothing');
  });
});
