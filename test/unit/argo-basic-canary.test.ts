/**
 * The basic canary's next replica counts, ported from argo-rollouts
 * (utils/replicaset/canary.go CalculateReplicaCountsForBasicCanary): the upstream table
 * of weighted targets (canary_test.go TestApproximateWeightedNewStableReplicaCounts) and
 * the worked examples of its doc comment, then what it means for a diagnosis: with
 * maxSurge above 0 the target often keeps every stable pod, and a canary pod waiting for
 * what they hold waits forever, whatever maxUnavailable says.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basicCanaryCounts as simCounts } from '../../sim/controllers/argo/canary-math.js';
import type { ArgoRollout } from '../../src/diagnosis/k8s-argo.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';
import {
  basicCanaryCounts,
  currentSetWeight,
  weightedCounts,
} from '../../src/diagnosis/workloads/rollout/basic-canary.js';
import { makeRollout, makeRolloutReplicaSet, trackerMidUpdate } from '../support/rollout-builders.js';

describe('the weighted canary and stable targets (upstream table)', () => {
  // [replicas, weight, maxSurge, canary, stable]
  const table: [number, number, number, number, number][] = [
    [0, 50, 1, 0, 0],
    [1, 1, 0, 0, 1],
    [1, 50, 0, 1, 0],
    [1, 1, 1, 1, 1],
    [1, 100, 1, 1, 0],
    [2, 1, 0, 1, 1],
    [2, 1, 1, 1, 2],
    [2, 99, 1, 2, 1],
    [3, 10, 0, 1, 2],
    [3, 50, 0, 2, 1],
    [3, 25, 1, 1, 3],
    [3, 33, 1, 1, 2],
    [3, 49, 1, 2, 2],
    [10, 0, 1, 0, 10],
    [10, 14, 0, 1, 9],
    [10, 15, 0, 2, 8],
  ];
  it.each(table)('replicas %i, weight %i, maxSurge %i: canary %i, stable %i', (r, w, s, canary, stable) => {
    expect(weightedCounts(r, w, s)).toEqual({ canary, stable });
  });
});

type Canary = NonNullable<NonNullable<ArgoRollout['spec']['strategy']>['canary']>;

describe('CalculateReplicaCountsForBasicCanary (upstream canary_test.go TestCalculateReplicaCountsForCanary)', () => {
  // Its cases without traffic routing, older ReplicaSets, aborts or full promotion:
  // [name, replicas, setWeight, maxSurge, maxUnavailable, stable spec, stable available,
  //  canary spec, canary available, expected canary, expected stable]
  const cases: [
    string,
    number,
    number,
    number | string,
    number | string,
    number,
    number,
    number,
    number,
    number,
    number,
  ][] = [
    [
      'Do not add extra RSs in scaleDownCount when .Spec.Replica < AvailableReplicas',
      10,
      100,
      3,
      0,
      7,
      8,
      6,
      3,
      6,
      7,
    ],
    ['Use max surge int to scale up canary', 10, 20, 2, 0, 10, 10, 0, 0, 2, 10],
    ['Use max surge percentage to scale up canary', 10, 20, '20%', 0, 10, 10, 0, 0, 2, 10],
    ['Scale down extra stable replicas', 10, 20, '20%', 0, 10, 10, 2, 2, 2, 8],
    ['Do not go past max surge', 10, 30, 2, 0, 10, 10, 0, 0, 2, 10],
    ['Use max unavailable int to scale down stableRS', 10, 20, 0, 2, 10, 10, 0, 0, 0, 8],
    ['Use max surge percentage to scale down stableRS', 10, 20, 0, '20%', 10, 10, 0, 0, 0, 8],
    ['Do not go past max unavailable', 10, 30, 0, 2, 10, 10, 0, 0, 0, 8],
    ['Use Max Surge and Max Unavailable', 10, 50, 2, 1, 10, 10, 0, 0, 2, 9],
    ['Scale canaryRS to zero on setWeight of 0%', 10, 0, 1, 1, 10, 10, 1, 1, 0, 10],
    ['Scale stable to zero on setWeight of 100%', 10, 100, 1, 1, 1, 1, 10, 10, 10, 0],
    ['Do not scale canaryRS down to zero on non-zero weight', 1, 20, 1, 0, 1, 1, 0, 0, 1, 1],
    ['Do not scale canaryRS down to zero on non-100 weight', 1, 90, 1, 0, 1, 1, 0, 0, 1, 1],
    ['Scale canaryRS to zero on <50 weight without surge', 1, 49, 0, 1, 1, 1, 0, 0, 0, 1],
    ['Scale stableRS down to zero on >=50 weight without surge', 1, 51, 0, 1, 1, 1, 0, 0, 0, 0],
    ['Scale canaryRS to one on >=50 weight without surge and stable replicas', 1, 51, 0, 1, 0, 0, 0, 0, 1, 0],
    ['Scale down canaryRS and stable', 10, 30, 0, 3, 8, 5, 4, 4, 3, 7],
    ['Scale down stable and canary available', 10, 100, 1, 0, 10, 2, 10, 8, 9, 2],
    ['Do not round past maxSurge with uneven setWeight divisor', 10, 5, 0, 1, 10, 10, 0, 0, 0, 9],
    ['Do not round past maxSurge with uneven setWeight divisor (part 2)', 10, 5, 0, 1, 9, 9, 0, 0, 1, 9],
    [
      'Use maxUnavailable of 1 when percentage of maxUnavailable and maxSurge result in 0 replicas',
      10,
      10,
      '0%',
      '0%',
      10,
      10,
      0,
      0,
      0,
      9,
    ],
    ['honor maxSurge during scale up when stableRS unavailable', 4, 100, 1, 0, 4, 1, 0, 0, 1, 4],
    ['scale down to maxunavailable without exceeding maxSurge', 3, 99, 0, 2, 3, 3, 0, 0, 0, 1],
    ['scale down to maxunavailable without exceeding maxSurge (part 2)', 3, 99, 0, 2, 1, 1, 0, 0, 2, 1],
    ['honor maxUnavailable when aborting or reducing weight part 1', 4, 0, 1, 0, 0, 0, 4, 4, 4, 1],
    ['honor maxUnavailable when aborting or reducing weight part 2', 4, 0, 1, 0, 1, 0, 4, 4, 4, 1],
    ['honor maxUnavailable when aborting or reducing weight part 3', 4, 0, 1, 0, 1, 1, 4, 4, 3, 1],
  ];
  it.each(cases)(
    '%s',
    (
      _,
      replicas,
      weight,
      maxSurge,
      maxUnavailable,
      stableSpec,
      stableAvailable,
      canarySpec,
      canaryAvailable,
      canary,
      stable,
    ) => {
      const rollout = makeRollout('web', {
        replicas,
        strategy: { canary: { maxSurge, maxUnavailable, steps: [{ setWeight: weight }] } },
        status: { observedGeneration: '2', currentPodHash: 'canary', stableRS: 'stable' },
      });
      const stableRS = makeRolloutReplicaSet(rollout, 'stable', {
        replicas: stableSpec,
        available: stableAvailable,
      });
      const canaryRS = makeRolloutReplicaSet(rollout, 'canary', {
        replicas: canarySpec,
        available: canaryAvailable,
      });
      expect(basicCanaryCounts(rollout, canaryRS, stableRS, [])).toEqual({ canary, stable });
    },
  );

  it('aims at the last setWeight at or before the current step; 100 past the steps; 0 once aborted', () => {
    const rollout = makeRollout('web', {
      strategy: { canary: { steps: [{ setWeight: 20 }, { pause: {} }, { setWeight: 60 }, { pause: {} }] } },
      status: { currentStepIndex: 1 },
    });
    expect(currentSetWeight(rollout)).toBe(20);
    expect(currentSetWeight({ ...rollout, status: { currentStepIndex: 3 } })).toBe(60);
    expect(currentSetWeight({ ...rollout, status: { currentStepIndex: 4 } })).toBe(100);
    expect(currentSetWeight({ ...rollout, status: { currentStepIndex: 3, abort: true } })).toBe(0);
  });
});

/** Four stable pods hold the node's four GPUs; the canary's one pod waits for one. */
const gpuCanary = (canary: Canary) => trackerMidUpdate({ canary }, 4);

describe('the basic canary keeps every stable pod where its target says so', () => {
  it('4 replicas at the defaults (25%/25%: surge 1, unavailable 1), setWeight 20: canary 1 beside stable 4, a deadlock', () => {
    const snapshot = gpuCanary({ steps: [{ setWeight: 20 }, { pause: {} }] });
    const kind = workloadKind(snapshot);
    const strategy = kind.strategy(kind.object(snapshot));
    expect(strategy.maxUnavailable?.value).toBe(1);
    expect(kind.keepsOldPods(snapshot)).toBe(true);
    expect(kind.replacement(strategy, snapshot)).toBe('surge-first');
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    expect(diagnosis.remediations[0]?.patch).toEqual({
      type: 'merge',
      body: { spec: { strategy: { canary: { maxSurge: 0, maxUnavailable: 1 } } } },
    });
  });

  it('the offered fix (maxSurge 0 / maxUnavailable 1) has the controller scale a stable pod down itself', () => {
    const snapshot = gpuCanary({ maxSurge: 0, maxUnavailable: 1, steps: [{ setWeight: 20 }, { pause: {} }] });
    const kind = workloadKind(snapshot);
    expect(kind.keepsOldPods(snapshot)).toBe(false);
    expect(kind.replacement(kind.strategy(kind.object(snapshot)), snapshot)).toBe('old-first');
    expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
  });

  it('setWeight 50 at the defaults: target canary 2, stable 3, so a stable pod goes and no deadlock is claimed', () => {
    const snapshot = gpuCanary({ steps: [{ setWeight: 50 }, { pause: {} }] });
    expect(workloadKind(snapshot).keepsOldPods(snapshot)).toBe(false);
    expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
  });
});

describe('the diagnosis and the simulated controller count alike', () => {
  // The simulator's Argo controller (sim/controllers/argo/canary-math.ts) transcribes the
  // same upstream function on its own, so that live tests do not agree with the
  // diagnosis by construction; here the two transcriptions are held to each other.
  it('on any basic canary mid-update', () => {
    const fencepost = fc.oneof(
      fc.integer({ min: 0, max: 6 }),
      fc.constantFrom('0%', '10%', '25%', '50', '100%'),
    );
    fc.assert(
      fc.property(
        fc.record({
          replicas: fc.integer({ min: 0, max: 12 }),
          weight: fc.integer({ min: 0, max: 100 }),
          maxSurge: fencepost,
          maxUnavailable: fencepost,
          stable: fc.tuple(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 14 })),
          canary: fc.tuple(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 14 })),
          older: fc.integer({ min: 0, max: 3 }),
          abort: fc.boolean(),
        }),
        (c) => {
          const rollout = makeRollout('web', {
            replicas: c.replicas,
            strategy: {
              canary: {
                maxSurge: c.maxSurge,
                maxUnavailable: c.maxUnavailable,
                steps: [{ setWeight: c.weight }],
              },
            },
            status: { observedGeneration: '2', currentPodHash: 'canary', stableRS: 'stable', abort: c.abort },
          });
          const rs = (hash: string, [spec, available]: [number, number]) =>
            makeRolloutReplicaSet(rollout, hash, { replicas: spec, available });
          const stable = rs('stable', c.stable);
          const canary = rs('canary', c.canary);
          const others = c.older > 0 ? [rs('older', [c.older, c.older])] : [];
          const ours = basicCanaryCounts(rollout, canary, stable, others);
          const sim = simCounts(rollout as never, canary as never, stable as never, others as never);
          expect([ours.canary, ours.stable]).toEqual(sim);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
