/**
 * The opt-in `neighbours` guard family (sim/generated-neighbours.ts, issue 63.3): a second
 * Deployment beside the target, sharing its capacity. Pinned here is what the judge
 * computes as truth for a few seeds (whether the target's rollout finishes once the
 * simulator runs every controller on, the neighbour's too), not the engine's answer, and
 * the judge's replay of a plan beside a neighbour with Pending pods that are older than
 * ours (the scheduler's queue gives them the room first: an order-dependent plan).
 */
import { describe, expect, it } from 'vitest';
import { guardState, OPT_IN_FAMILIES } from '../../sim/generated-guards.js';
import { NEIGHBOUR, NEIGHBOUR_VARIANTS } from '../../sim/generated-neighbours.js';
import { startStepped } from '../../sim/stepped.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { judgeOnePlan, rolledOut, toSnapshot } from '../support/state-judge.js';

/** At the snapshot: rolled out yet, pods Pending (target, neighbour); then whether it finishes. */
function truth(seed: number): {
  variant?: string;
  atSnapshot: boolean;
  pending: [number, number];
  completes: boolean;
} {
  const state = guardState(seed, 'neighbours');
  const sim = startStepped(state.objects);
  try {
    expect(toSnapshot(sim, state)).toBe(true);
    const pods = sim.list('Pod', state.namespace) as unknown as {
      metadata: { labels?: Record<string, string>; deletionTimestamp?: string };
      spec: { nodeName?: string };
    }[];
    const pending = (app: string): number =>
      pods.filter(
        (p) => p.metadata.labels?.['app'] === app && !p.spec.nodeName && !p.metadata.deletionTimestamp,
      ).length;
    const atSnapshot = rolledOut(sim, state);
    const completes = sim.advance(state.forwardSeconds ?? 900, () => rolledOut(sim, state));
    return {
      ...(state.neighbour ? { variant: state.neighbour.variant } : {}),
      atSnapshot,
      pending: [pending(state.name), pending(NEIGHBOUR)],
      completes,
    };
  } finally {
    sim.stop();
  }
}

describe('neighbours family', () => {
  it('is opt-in (no seed of the rotation moves to it) and draws every sub-variant', () => {
    expect(OPT_IN_FAMILIES).toContain('neighbours');
    const variants = new Set(
      Array.from({ length: 20 }, (_, i) => guardState(i + 1, 'neighbours').neighbour?.variant),
    );
    expect([...variants].sort()).toEqual([...NEIGHBOUR_VARIANTS].sort());
    const state = guardState(26, 'neighbours');
    expect(state.family).toBe('neighbours');
    expect(
      state.objects.some((o) => (o as { metadata?: { name?: string } }).metadata?.name === NEIGHBOUR),
    ).toBe(true);
  });

  // The neighbour's old pods stop slowly (preStop) or its own rollout steps to smaller
  // pods: the target waits at the snapshot, and finishes once the room is freed (a
  // verdict of "can never finish" is a false deadlock here).
  it.each([11, 13, 28])(
    'freeing, seed %i: the target waits on the neighbour at the snapshot and finishes',
    (seed) => {
      const t = truth(seed);
      expect(t.variant).toBe('freeing');
      expect(t.atSnapshot).toBe(false);
      expect(t.pending[0]).toBeGreaterThan(0);
      expect(t.completes).toBe(true);
    },
  );

  it.each([
    [26, 'hpa-pending', false],
    [29, 'shared-quota', false],
    [20, 'shared-budget', false],
    [36, 'shared-rollout', false],
    [30, 'shared-rollout', true],
  ] as const)('seed %i (%s): mid-rollout at the snapshot; finishes: %s', (seed, variant, completes) => {
    const t = truth(seed);
    expect(t.variant).toBe(variant);
    expect(t.atSnapshot).toBe(false);
    expect(t.completes).toBe(completes);
  });

  // Seed 19: the target waits for room; checkout, raised past its room, has Pending pods
  // of the same size, older than any pod a plan makes. Taking an old pod of the target
  // down frees room, and the neighbour's older pod takes it: the plan reaches its goal
  // only where the neighbour loses that race.
  it('shared-budget, seed 19: a plan that frees the room the older Pending neighbour takes is order-dependent; harmful unless it names the neighbour', () => {
    const state = guardState(19, 'neighbours');
    const plan = (warnings: string[]): RemediationPlan =>
      ({
        id: 'by-hand',
        kind: 'set-rolling-update',
        target: { kind: 'Deployment', namespace: state.namespace, name: state.name },
        summary: 'maxSurge 0, maxUnavailable 1',
        impact: 'one pod down at a time',
        warnings,
        preconditions: {},
        addresses: 'RolloutSurgeDeadlock',
        patch: {
          type: 'merge',
          body: {
            spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
          },
        },
        inverse: null,
      }) as unknown as RemediationPlan;
    const silent = judgeOnePlan(state, plan([]));
    expect(silent?.orderDependent).toBe(true);
    expect(silent?.harm).toBe('order-dependent');
    const named = judgeOnePlan(
      state,
      plan([`${NEIGHBOUR} has Pending pods that may take the freed node first`]),
    );
    expect(named?.orderDependent).toBe(true);
    expect(named?.harm).toBeUndefined();
  });
});
