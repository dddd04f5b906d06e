/**
 * A paused basic canary whose steps ahead fit the nodes in count but not in the order
 * the ReplicaSet controller removes stable pods (forward/canary-order.ts). Four GPU
 * replicas, one GPU a node: gpu-01, 02, 05 and 06 take pods, gpu-03 and gpu-04 are
 * cordoned. The stable pods run on gpu-01, 02, 04 and 05, the canary pod on gpu-06;
 * maxSurge 1, maxUnavailable 0. Which stable pod goes is ActivePodsWithRanks.Less's
 * (Ready pods alike: deletion cost, then the UID): where the one on gpu-04 goes before
 * the last one on a node the canary may use, the promotion waits for that pod's room
 * forever (round 7b s2468-01297, told "it waits for a person").
 */
import { describe, expect, it } from 'vitest';
import type { ArgoRollout } from '../../src/diagnosis/k8s-argo.js';
import type { ResourceQuota } from '../../src/diagnosis/k8s-policy.js';
import { stepsAhead } from '../../src/diagnosis/workloads/rollout/basic-canary.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { canaryOrderShortfall } from '../../src/diagnosis/forward/canary-order.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { makeNode } from '../support/k8s-builders.js';
import {
  makeRollout,
  makeRolloutPod,
  makeRolloutReplicaSet,
  makeRolloutSnapshot,
} from '../support/rollout-builders.js';

interface Options {
  /** UID rank (lower goes first) of the stable pods on gpu-01, 02, 04, 05. */
  uids?: [string, string, string, string];
  /** pod-deletion-cost of the stable pod on gpu-04. */
  cordonedCost?: string;
  /** gpu-04 takes pods (not cordoned). */
  uncordoned?: boolean;
  maxUnavailable?: number;
  /** The stable pod on gpu-01 crash-loops. */
  stableFailing?: boolean;
}

const STABLE_NODES = ['gpu-01', 'gpu-02', 'gpu-04', 'gpu-05'];

function pausedCanary(options: Options = {}) {
  const cordoned = new Set(['gpu-03', ...(options.uncordoned ? [] : ['gpu-04'])]);
  const nodes = ['gpu-01', 'gpu-02', 'gpu-03', 'gpu-04', 'gpu-05', 'gpu-06'].map((name) =>
    makeNode(name, { allocatable: { 'nvidia.com/gpu': '1' }, unschedulable: cordoned.has(name) }),
  );
  const strategy: ArgoRollout['spec']['strategy'] = {
    canary: {
      maxSurge: 1,
      maxUnavailable: options.maxUnavailable ?? 0,
      steps: [
        { setWeight: 20 },
        { pause: {} },
        { setWeight: 25 },
        { pause: {} },
        { setWeight: 75 },
        { pause: { duration: '5m' } },
      ],
    },
  };
  const rollout = makeRollout('embedder', {
    strategy,
    replicas: 4,
    resources: { 'nvidia.com/gpu': '1' },
    status: {
      observedGeneration: '2',
      phase: 'Paused',
      message: 'CanaryPauseStep',
      currentPodHash: 'b2',
      stableRS: 'a1',
      currentStepIndex: 1,
      pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-11-22T02:30:00Z' }],
      conditions: [
        {
          type: 'Paused',
          status: 'True',
          reason: 'RolloutPaused',
          message: 'Rollout is paused',
          lastTransitionTime: '2026-11-22T02:30:00Z',
        },
      ],
      replicas: 5,
      updatedReplicas: 1,
      availableReplicas: 5,
    },
  });
  const stable = makeRolloutReplicaSet(rollout, 'a1', {
    revision: 1,
    replicas: 4,
    image: 'registry.example/embedder:1.0',
  });
  const canary = makeRolloutReplicaSet(rollout, 'b2', { revision: 2, replicas: 1 });
  const uids = options.uids ?? ['u3', 'u1', 'u2', 'u4'];
  const stablePods = STABLE_NODES.map((node, i) => {
    const failing = options.stableFailing && node === 'gpu-01';
    const pod = makeRolloutPod(
      stable,
      `s${i}`,
      node,
      failing ? { phase: 'CrashLoopBackOff', restarts: 7 } : { phase: 'Running' },
    );
    pod.metadata.uid = uids[i] ?? '';
    if (node === 'gpu-04' && options.cordonedCost)
      pod.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': options.cordonedCost };
    return pod;
  });
  const canaryPod = makeRolloutPod(canary, 'c0', 'gpu-06', { phase: 'Running' });
  return makeRolloutSnapshot({
    rollout,
    replicaSets: [canary, stable],
    pods: [...stablePods, canaryPod],
    nodes,
  });
}

const codes = (snapshot: ReturnType<typeof pausedCanary>): string[] =>
  diagnose(snapshot).findings.map((f) => f.code);

describe('a paused basic canary: the order the stable pods go in (canary-order.ts)', () => {
  it('the stable pod on the cordoned node goes before the last one the canary needs: can never finish, said now', () => {
    const diagnosis = diagnose(pausedCanary());
    const stuck = diagnosis.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.severity).toBe('critical');
    expect(stuck?.summary).toContain('embedder-a1-s2 on gpu-04 (cordoned)');
    expect(stuck?.summary).toContain('while embedder-a1-s0 on gpu-01, embedder-a1-s3 on gpu-05 stay');
    expect(stuck?.summary).toContain('Step 5 (setWeight 75) then waits');
    expect(stuck?.summary).toMatch(/^The rollout can never finish its canary steps, though their counts fit/);
    expect(stuck?.explanation).toContain(
      'kubectl annotate pod embedder-a1-s2 -n vision controller.kubernetes.io/pod-deletion-cost=100',
    );
    expect(diagnosis.findings.map((f) => f.code)).toContain('RolloutPaused');
    // Nothing is offered to click: the fix is said, and the pause waits for a person.
    expect(diagnosis.remediations).toEqual([]);
  });

  it('the stable pod on the cordoned node goes third: the steps pass, the promotion after them never finishes', () => {
    const stuck = diagnose(pausedCanary({ uids: ['u4', 'u1', 'u3', 'u2'] })).findings.find(
      (f) => f.code === 'RolloutStuck',
    );
    expect(stuck?.summary).toContain('while embedder-a1-s0 on gpu-01 stays');
    expect(stuck?.summary).toContain('The promotion after the last step then waits');
    expect(stuck?.evidence[0]).toMatchObject({
      type: 'note',
      text: expect.stringContaining('in order: embedder-a1-s1, embedder-a1-s3, embedder-a1-s2;'),
    });
  });

  it('the stable pod on the cordoned node goes last (its UID ranks it so): the steps finish, nothing claimed', () => {
    expect(codes(pausedCanary({ uids: ['u1', 'u2', 'u4', 'u3'] }))).not.toContain('RolloutStuck');
  });

  it("a higher deletion cost on the cordoned node's pod (the fix it names) puts it last: nothing claimed", () => {
    expect(codes(pausedCanary({ cordonedCost: '100' }))).not.toContain('RolloutStuck');
  });

  it('every node takes pods: the same order frees room the canary uses, nothing claimed', () => {
    expect(codes(pausedCanary({ uncordoned: true }))).not.toContain('RolloutStuck');
  });

  it('maxUnavailable 1: the controller removes stable pods until a canary pod fits, nothing claimed', () => {
    expect(codes(pausedCanary({ maxUnavailable: 1 }))).not.toContain('RolloutStuck');
  });

  it('a stable pod crash-looping: the run would start from pods the controllers do not count as available, no claim', () => {
    expect(canaryOrderShortfall(new AnalysisContext(pausedCanary()))?.step?.order).toBeDefined();
    expect(canaryOrderShortfall(new AnalysisContext(pausedCanary({ stableFailing: true })))).toBeUndefined();
  });
});

/**
 * A traffic-routed canary with dynamicStableScale, paused at its first setWeight (25):
 * canary 1 on gpu-03, stable 3 on gpu-01, gpu-02 and gpu-04 (cordoned); gpu-05 and
 * gpu-06 free. Step 3 (setWeight 50) holds canary 2 beside stable 3 (the router still
 * sends 75 to the stable): 4 on the 5 usable nodes. The promotion holds canary 4 beside
 * the stable's share at 50, 2 pods: 5 usable nodes fit it only where the stable pod kept
 * is the one on gpu-04, which the ReplicaSet's order decides.
 */
function routedCanary(options: {
  cordonedFirst: boolean;
  steps?: Canary['steps'];
  quotaPods?: number;
  gpusPerNode?: number;
}) {
  const nodes = ['gpu-01', 'gpu-02', 'gpu-03', 'gpu-04', 'gpu-05', 'gpu-06'].map((name) =>
    makeNode(name, {
      allocatable: { 'nvidia.com/gpu': String(options.gpusPerNode ?? 1) },
      unschedulable: name === 'gpu-04',
    }),
  );
  const rollout = makeRollout('ranker', {
    replicas: 4,
    resources: { 'nvidia.com/gpu': '1' },
    strategy: {
      canary: {
        canaryService: 'ranker-canary',
        stableService: 'ranker-stable',
        trafficRouting: { nginx: { stableIngress: 'ranker' } },
        dynamicStableScale: true,
        steps: options.steps ?? [{ setWeight: 25 }, { pause: {} }, { setWeight: 50 }, { pause: {} }],
      },
    },
    status: {
      observedGeneration: '2',
      phase: 'Paused',
      message: 'CanaryPauseStep',
      currentPodHash: 'b2',
      stableRS: 'a1',
      currentStepIndex: 1,
      pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-11-22T02:30:00Z' }],
      canary: {
        weights: {
          canary: { weight: 25 },
          stable: { weight: 75 },
        },
      },
      replicas: 4,
      updatedReplicas: 1,
      availableReplicas: 4,
    },
  });
  const stable = makeRolloutReplicaSet(rollout, 'a1', {
    revision: 1,
    replicas: 3,
    image: 'registry.example/ranker:1.0',
  });
  const canary = makeRolloutReplicaSet(rollout, 'b2', { revision: 2, replicas: 1 });
  const stablePods = ['gpu-01', 'gpu-02', 'gpu-04'].map((node, i) => {
    const pod = makeRolloutPod(stable, `s${i}`, node, { phase: 'Running' });
    pod.metadata.uid = node === 'gpu-04' ? (options.cordonedFirst ? 'u0' : 'u9') : `u${i + 1}`;
    return pod;
  });
  const quota: ResourceQuota[] =
    options.quotaPods === undefined
      ? []
      : [
          {
            apiVersion: 'v1',
            kind: 'ResourceQuota',
            metadata: { name: 'vision-pods', namespace: 'vision' },
            spec: { hard: { pods: String(options.quotaPods) } },
            status: { hard: { pods: String(options.quotaPods) }, used: { pods: '4' } },
          },
        ];
  return makeRolloutSnapshot({
    rollout,
    replicaSets: [canary, stable],
    pods: [...stablePods, makeRolloutPod(canary, 'c0', 'gpu-03', { phase: 'Running' })],
    nodes,
    resourceQuotas: quota,
  });
}

type Canary = NonNullable<NonNullable<ArgoRollout['spec']['strategy']>['canary']>;

describe('a traffic-routed canary: the stable pods its steps keep and ask back', () => {
  it('the stable pod on the cordoned node goes first: the promotion can never finish, said while paused', () => {
    const stuck = diagnose(routedCanary({ cordonedFirst: true })).findings.find(
      (f) => f.code === 'RolloutStuck',
    );
    expect(stuck?.summary).toContain('it removes ranker-a1-s2 on gpu-04 (cordoned)');
    expect(stuck?.summary).toContain('The promotion after the last step then waits');
    expect(stuck?.summary).toContain(
      'the controller keeps 2 stable pods until the canary pods are available',
    );
    expect(stuck?.evidence[0]).toMatchObject({
      text: expect.stringContaining(
        "In the ReplicaSet controller's deletion order: the stable pods removed, in order: ranker-a1-s2;",
      ),
    });
  });

  it('the stable pod on the cordoned node goes last: the promotion fits, nothing claimed', () => {
    expect(codes(routedCanary({ cordonedFirst: false }))).not.toContain('RolloutStuck');
  });

  it('a setCanaryScale replicas step asks every stable pod back first (weight 0): a pods quota of 7 never holds 4 beside 4', () => {
    const steps: Canary['steps'] = [
      { setWeight: 25 },
      { pause: {} },
      { setCanaryScale: { replicas: 4 } },
      { setWeight: 33 },
    ];
    expect(
      stepsAhead((routedCanary({ cordonedFirst: false, steps }) as { rollout: ArgoRollout }).rollout)[0],
    ).toMatchObject({
      index: 2,
      action: 'setCanaryScale replicas 4',
      canary: 4,
      stable: 4,
    });
    const stuck = diagnose(
      routedCanary({ cordonedFirst: false, steps, quotaPods: 7, gpusPerNode: 2 }),
    ).findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain(
      'at step 3 (setCanaryScale replicas 4) the controller first scales the stable ReplicaSet back up to 4 stable pods',
    );
    expect(stuck?.summary).toContain('ResourceQuota vision-pods');
    expect(codes(routedCanary({ cordonedFirst: false, steps, quotaPods: 8, gpusPerNode: 2 }))).not.toContain(
      'RolloutStuck',
    );
  });

  it('a setCanaryScale step waits for its own counts (completedCurrentCanaryStep), though the setWeight after it asks fewer', () => {
    // The matchTrafficWeight step ends the explicit scale: setWeight 50 then asks 2 canary
    // pods beside 2 stable ones, which a pods quota of 7 holds; step 3 alone asks 4 beside 4.
    const steps: Canary['steps'] = [
      { setWeight: 25 },
      { pause: {} },
      { setCanaryScale: { replicas: 4 } },
      { pause: {} },
      { setCanaryScale: { matchTrafficWeight: true } },
      { setWeight: 50 },
    ];
    const ahead = stepsAhead(
      (routedCanary({ cordonedFirst: false, steps }) as { rollout: ArgoRollout }).rollout,
    );
    expect(ahead.map((s) => s.action)).toEqual(['setCanaryScale replicas 4', 'setWeight 50', 'promotion']);
    const stuck = diagnose(
      routedCanary({ cordonedFirst: false, steps, quotaPods: 7, gpusPerNode: 2 }),
    ).findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain('at step 3 (setCanaryScale replicas 4)');
    expect(codes(routedCanary({ cordonedFirst: false, steps, quotaPods: 8, gpusPerNode: 2 }))).not.toContain(
      'RolloutStuck',
    );
  });
});
