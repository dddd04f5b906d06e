/**
 * Issue 68.1: every arm of the plan proof (src/engine/plan-proof.ts provePlan), called
 * directly, one row per arm: the verdict, and for a refusal the key words of its reason.
 *
 * - run forward (goalRefusal): a rollout that still stops, new pods that never become
 *   Ready, serving pods replaced by pods that crash-loop on one node; and a run that
 *   completes;
 * - checked, not run (pods not read on every node): a template that crashes on every
 *   node it ran on refused only where the plan takes serving pods down and replaces
 *   them with that template; one that crashes on one node, refused where the written
 *   template still lets its replacements onto that node (not where it excludes it);
 * - a StatefulSet's checked take-down (statedTakeDown): the controller deletes the
 *   highest ordinals not updated, serving or not, maxUnavailable at a time, so a pod
 *   already unavailable does not count against it as it does for a Deployment.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import type { PodDisruptionBudget } from '../../src/diagnosis/k8s-policy.js';
import type { DeploymentSnapshot, WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { provePlan, type ProofVerdict } from '../../src/engine/plan-proof.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { crashScenario } from '../support/crash-fixtures.js';
import { makeNode } from '../support/k8s-builders.js';
import { edgeIngress, pendingRolloutSnapshot, PORTS_MESSAGE, rollout } from '../support/rollout-scenarios.js';
import {
  makeStatefulSet,
  makeStatefulSetSnapshot,
  makeStsPod,
  makeStsRevision,
} from '../support/statefulset-builders.js';

const RESTART = {
  metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-22T03:00:00Z' } },
};
const HOST_PORT = [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' as const }];

/** A plan of `kind` writing `body` (a strategic-merge patch of the workload), named "the plan". */
function plan(kind: string, body: unknown, extra: Record<string, unknown> = {}): RemediationPlan {
  return {
    id: `${kind}-0123456789abcdef`,
    kind,
    summary: 'the plan',
    impact: 'i',
    warnings: [],
    target: { kind: 'Deployment', namespace: 'vision', name: 'x' },
    patch: body === null ? null : { type: 'strategic-merge', body },
    preconditions: { uid: 'u', generation: 1, fields: [] },
    inverse: null,
    addresses: 'RolloutSurgeDeadlock',
    ...extra,
  } as unknown as RemediationPlan;
}
const strategy = (maxSurge: number, maxUnavailable: number, restart = true) => ({
  spec: {
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } },
    ...(restart ? { template: RESTART } : {}),
  },
});
const recreate = { spec: { strategy: { type: 'Recreate', rollingUpdate: null }, template: RESTART } };

/** Seed B (a pod crash-looping on node-b only), its pods holding hostPort 8080: one pod per node. */
const crashOnNodeB = (): WorkloadSnapshot =>
  crashScenario({
    placement: ['node-a', 'node-b', 'node-c'],
    crashing: [1],
    deployment: { ports: HOST_PORT },
  }).snapshot;

/** crashOnNodeB with pods not read on every node: no plan is run forward, only checked. */
const crashOnNodeBUnread = (): WorkloadSnapshot => {
  const snapshot = crashOnNodeB();
  return { ...snapshot, coverage: { ...snapshot.coverage, podsReadOn: [] } };
};
/** A node exclusion of node-b, with a strategy that takes a serving pod down for each replacement. */
const excludeNodeB = {
  spec: {
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } },
    template: {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] },
                  ],
                },
              ],
            },
          },
        },
      },
    },
  },
};

/**
 * The ingress mid-rollout, its new template crash-looping on edge-4, the only node it ran
 * on; `unread`: pods not read on every node, so no plan is run forward, only checked.
 */
function crashingEverywhere(unread: boolean): DeploymentSnapshot {
  const nodes = ['edge-1', 'edge-2', 'edge-3', 'edge-4'].map((n) =>
    makeNode(n, { labels: { pool: 'edge' } }),
  );
  const parts = rollout('ingress', {
    oldNodes: ['edge-1', 'edge-2', 'edge-3'],
    ports: HOST_PORT,
    podSpec: { nodeSelector: { pool: 'edge' } },
  });
  const crashing = structuredClone(parts.newPods[0]);
  if (!crashing) throw new Error('no surge pod');
  crashing.metadata.name = 'ingress-7b9f8c5d4f-c1ash';
  crashing.metadata.uid = 'crash-uid';
  crashing.spec.nodeName = 'edge-4';
  crashing.status = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: [
      {
        name: 'ingress',
        image: 'registry.example/ingress:1.1',
        ready: false,
        restartCount: 6,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
        lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-11-22T02:58:00Z' } },
      },
    ],
  };
  parts.newPods.push(crashing);
  parts.newRs.spec.replicas = 2;
  const snapshot = pendingRolloutSnapshot(parts, nodes, PORTS_MESSAGE, {
    guards: { podDisruptionBudgets: [] },
  });
  return unread ? { ...snapshot, coverage: { ...snapshot.coverage, podsReadOn: [] } } : snapshot;
}

/** The serving old pod on edge-1 of crashingEverywhere(), as a plan names a pod. */
function oldPodOnEdge1(snapshot: DeploymentSnapshot): { name: string; uid: string } {
  const pod = snapshot.pods.find((p) => p.spec.nodeName === 'edge-1');
  return { name: pod?.metadata.name ?? '', uid: pod?.metadata.uid ?? '' };
}

/**
 * The ledger StatefulSet, 3 replicas at one revision, ledger-2 Running but not Ready (2
 * serving), maxUnavailable `maxUnavailable` (the gate on: v1.35.2), under a budget of 1.
 */
function ledger(maxUnavailable: number): WorkloadSnapshot {
  const sts = makeStatefulSet('ledger', {
    status: {
      observedGeneration: 3,
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'ledger-65f9b98df4',
      updateRevision: 'ledger-65f9b98df4',
    },
  });
  sts.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable } };
  const revision = makeStsRevision(sts, '65f9b98df4', 1);
  const pdb: PodDisruptionBudget = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'ledger', namespace: 'payments', generation: 1 },
    spec: { selector: { matchLabels: { app: 'ledger' } }, minAvailable: 1 },
  };
  return makeStatefulSetSnapshot({
    statefulSet: sts,
    controllerRevisions: [revision],
    pods: [
      makeStsPod(sts, revision, 0, 'node-a', { phase: 'Running' }),
      makeStsPod(sts, revision, 1, 'node-b', { phase: 'Running' }),
      makeStsPod(sts, revision, 2, 'node-c', { phase: 'Running', ready: false }),
    ],
    nodes: ['node-a', 'node-b', 'node-c'].map((n) => makeNode(n)),
    serverVersion: 'v1.35.2',
    guards: { podDisruptionBudgets: [pdb] },
  });
}

interface Row {
  arm: string;
  snapshot: () => WorkloadSnapshot;
  plan: (snapshot: WorkloadSnapshot) => RemediationPlan;
  /** What the verdict must match (a refusal's reason as a pattern of its key words). */
  expected: Record<string, unknown>;
}

const ROWS: Row[] = [
  {
    arm: 'run: a rollout that still stops (the surge pod finds no room) is refused',
    snapshot: () => ({ ...edgeIngress(), guards: { podDisruptionBudgets: [] } }),
    plan: () => plan('set-rolling-update', strategy(1, 0, false)),
    expected: {
      verdict: 'refused',
      reason: expect.stringMatching(
        /^"the plan": run forward, the rollout still stops \(1 new pod\(s\) find no room\), so it finishes nothing$/,
      ),
    },
  },
  {
    arm: 'run: new pods that never become Ready (a pod of the template crash-looping) are refused',
    snapshot: () => crashScenario().snapshot,
    plan: () => plan('set-rolling-update', strategy(1, 0, false)),
    expected: {
      verdict: 'refused',
      reason: expect.stringMatching(
        /run forward, the new pods never become Ready \(they fail on their own\)/,
      ),
    },
  },
  {
    arm: 'run: serving pods replaced by pods that crash-loop on one node are refused, naming it',
    snapshot: crashOnNodeB,
    plan: () => plan('set-recreate', recreate),
    expected: {
      verdict: 'refused',
      reason: expect.stringMatching(
        /would replace serving pods with pods that crash-loop \(on node-b\): the crash follows the rollout there$/,
      ),
    },
  },
  {
    arm: 'run: serving pods replaced by pods of a template that crashes everywhere it ran are refused, saying roll back',
    snapshot: () => crashingEverywhere(false),
    plan: () => plan('set-recreate', recreate),
    expected: {
      verdict: 'refused',
      reason: expect.stringMatching(
        /would replace serving pods with pods that crash-loop \(the new template crashes on every node it ran on\): roll back instead$/,
      ),
    },
  },
  {
    arm: 'run: a rollout that completes is proved, with its lowest',
    snapshot: () => crashScenario().snapshot,
    plan: () => plan('set-rolling-update', strategy(0, 1)),
    expected: {
      verdict: 'proved',
      proof: expect.objectContaining({ method: 'run', serving: { now: 2, lowest: 2, wanted: 3 } }),
    },
  },
  {
    arm: 'checked: taking serving pods down for a template that crashes everywhere it ran is refused',
    snapshot: () => crashingEverywhere(true),
    plan: () => plan('set-recreate', recreate),
    expected: {
      verdict: 'refused',
      reason: expect.stringMatching(
        /would replace serving pods with pods of a template that crashes on every node it ran on \(edge-4\): roll back instead$/,
      ),
    },
  },
  {
    arm: 'checked: the same template, a plan that takes no serving pod down, is proved',
    snapshot: () => crashingEverywhere(true),
    plan: () => plan('set-rolling-update', strategy(1, 0, false)),
    expected: {
      verdict: 'proved',
      proof: expect.objectContaining({ method: 'checked', serving: { now: 3, lowest: 3, wanted: 3 } }),
    },
  },
  {
    arm: 'checked: the same template, a plan that takes a serving pod down without replacing it from the template, is proved',
    snapshot: () => crashingEverywhere(true),
    plan: (s) =>
      plan('delete-pods', null, {
        pods: [oldPodOnEdge1(s as DeploymentSnapshot)],
        addresses: 'CrashLoopOnNode',
      }),
    expected: {
      verdict: 'proved',
      proof: expect.objectContaining({ method: 'checked', serving: { now: 3, lowest: 2, wanted: 3 } }),
    },
  },
  {
    arm: 'checked: taking serving pods down for a template that crashes on one node its replacements may land on is refused',
    snapshot: crashOnNodeBUnread,
    plan: () => plan('set-recreate', recreate),
    expected: {
      verdict: 'refused',
      reason: expect.stringMatching(
        /would replace serving pods with pods of a template that crashes on node-b, where its replacements may land .*keep the pods off that node first, or roll back$/,
      ),
    },
  },
  {
    arm: 'checked: the same crash, a plan whose template keeps its pods off that node, is not refused for it',
    snapshot: crashOnNodeBUnread,
    plan: () => plan('exclude-node', excludeNodeB, { addresses: 'CrashLoopOnNode' }),
    expected: {
      verdict: 'proved',
      proof: expect.objectContaining({ method: 'checked', serving: { now: 2, lowest: 1, wanted: 3 } }),
    },
  },
  {
    arm: 'StatefulSet, checked: maxUnavailable 1 takes one serving pod down, whatever is already unavailable',
    snapshot: () => ledger(1),
    plan: () => plan('rollout-restart', { spec: { template: RESTART } }),
    expected: {
      verdict: 'proved',
      proof: expect.objectContaining({
        method: 'checked',
        serving: { now: 2, lowest: 1, wanted: 3 },
        why: expect.stringMatching(/does not follow this kind of update \(ordered pods/),
      }),
    },
  },
  {
    arm: 'StatefulSet, checked: maxUnavailable 2 takes both serving pods down, below its budget of 1',
    snapshot: () => ledger(2),
    plan: () => plan('rollout-restart', { spec: { template: RESTART } }),
    expected: {
      verdict: 'below-floor',
      proof: expect.objectContaining({
        method: 'checked',
        serving: { now: 2, lowest: 0, wanted: 3 },
        belowFloor: 1,
      }),
    },
  },
];

describe('the plan proof, one row per arm', () => {
  it.each(ROWS)('$arm', ({ snapshot, plan: planOf, expected }) => {
    const state = snapshot();
    const verdict: ProofVerdict | undefined = provePlan(new AnalysisContext(state), planOf(state));
    expect(verdict).toMatchObject(expected);
  });
});
