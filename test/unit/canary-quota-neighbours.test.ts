/**
 * A paused traffic-routed canary whose next step, or its promotion, a pods quota holds
 * only without the namespace's other pods (forward/quota-neighbours.ts): the steps'
 * bound makes no claim (those pods may go), but the step waits for them, so it is said
 * as a warning, naming them and their owners. Seen on round 7b s1212-00373 (Jobs of the
 * namespace) and s6464-00027 (at the promotion).
 */
import { describe, expect, it } from 'vitest';
import type { ArgoRollout } from '../../src/diagnosis/k8s-argo.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceQuota } from '../../src/diagnosis/k8s-policy.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { findingExplanation, findingSummary } from '../../src/message/words/finding.js';
import { makeNode } from '../support/k8s-builders.js';
import {
  makeRollout,
  makeRolloutPod,
  makeRolloutReplicaSet,
  makeRolloutSnapshot,
} from '../support/rollout-builders.js';

type Canary = NonNullable<NonNullable<ArgoRollout['spec']['strategy']>['canary']>;

function jobPod(name: string, terminating = false): Pod {
  return {
    metadata: {
      name: `${name}-x1`,
      namespace: 'vision',
      uid: `job-${name}`,
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name, uid: `j-${name}`, controller: true }],
      ...(terminating ? { deletionTimestamp: '2026-11-22T02:59:00Z' } : {}),
    },
    spec: {
      nodeName: 'node-03',
      restartPolicy: 'Never',
      containers: [{ name: 'report', image: 'report:1' }],
    },
    status: { phase: 'Running' },
  } as Pod;
}

function pausedCanary(options: {
  quotaPods: number;
  steps?: Canary['steps'];
  jobs?: Pod[];
  podsReadOn?: 'all' | string[];
}) {
  const steps = options.steps ?? [{ setWeight: 33 }, { pause: {} }, { setWeight: 80 }];
  const rollout = makeRollout('ranker', {
    replicas: 3,
    strategy: {
      canary: {
        canaryService: 'ranker-canary',
        stableService: 'ranker-stable',
        trafficRouting: { nginx: { stableIngress: 'ranker' } },
        steps,
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
      canary: { weights: { canary: { weight: 33 }, stable: { weight: 67 } } },
      replicas: 4,
      updatedReplicas: 1,
      availableReplicas: 4,
    },
  });
  const stable = makeRolloutReplicaSet(rollout, 'a1', { revision: 1, replicas: 3, image: 'ranker:1.0' });
  const canary = makeRolloutReplicaSet(rollout, 'b2', { revision: 2, replicas: 1 });
  const jobs = options.jobs ?? [jobPod('nightly-report-1'), jobPod('nightly-report-2')];
  const quota: ResourceQuota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'vision-pods', namespace: 'vision' },
    spec: { hard: { pods: String(options.quotaPods) } },
    status: { hard: { pods: String(options.quotaPods) }, used: { pods: String(4 + jobs.length) } },
  };
  const snapshot = makeRolloutSnapshot({
    rollout,
    replicaSets: [canary, stable],
    pods: [
      ...['node-01', 'node-02', 'node-03'].map((node, i) =>
        makeRolloutPod(stable, `s${i}`, node, { phase: 'Running' }),
      ),
      makeRolloutPod(canary, 'c0', 'node-01', { phase: 'Running' }),
    ],
    nodes: ['node-01', 'node-02', 'node-03'].map((n) => makeNode(n)),
    resourceQuotas: [quota],
    namespacePods: jobs,
  });
  if (options.podsReadOn) snapshot.coverage = { ...snapshot.coverage, podsReadOn: options.podsReadOn };
  return snapshot;
}

const atRisk = (snapshot: ReturnType<typeof pausedCanary>) =>
  diagnose(snapshot).findings.find((f) => f.code === 'RolloutAtRisk');

describe('a paused canary whose step ahead a quota holds only without the namespace’s other pods', () => {
  it('is said as a warning that names the step, the quota and the pods it waits for', () => {
    const finding = atRisk(pausedCanary({ quotaPods: 7 }));
    expect(finding?.severity).toBe('warning');
    expect(finding?.summary).toBe(
      'Once resumed, rollout/ranker waits at step 3 (setWeight 80): it needs 3 canary pods beside 3 stable pods (pods 6), which ResourceQuota vision-pods (hard 7) holds only without the 2 other pods of the namespace it also charges (nightly-report-1-x1 (Job nightly-report-1), nightly-report-2-x1 (Job nightly-report-2)).',
    );
    expect(finding?.explanation).toContain("a Job's pods leave when it ends");
    // In Korean from the catalogue, with the same facts.
    if (!finding) throw new Error('no finding');
    expect(findingSummary(finding, 'ko')).toBe(
      'rollout/ranker: 재개하면 3단계(setWeight 80)에서 기다리게 됩니다. 카나리 파드 3개와 기존 파드 3개가 함께 필요한데(pods 6), ResourceQuota(vision-pods, 상한 7)는 같은 네임스페이스의 다른 파드 2개(nightly-report-1-x1 (Job nightly-report-1), nightly-report-2-x1 (Job nightly-report-2))가 빠져야 이를 허용합니다.',
    );
    expect(findingExplanation({ ...finding, remediations: [] }, 'ko')).toContain(
      '`kubectl edit resourcequota vision-pods -n vision`',
    );
    // No fix is offered for it: the counts are the controller's.
    expect(diagnose(pausedCanary({ quotaPods: 7 })).findings.every((f) => f.remediations.length === 0)).toBe(
      true,
    );
  });

  it('at the promotion after the last pause: a traffic-routed canary keeps every stable pod until it is whole', () => {
    const finding = atRisk(pausedCanary({ quotaPods: 7, steps: [{ setWeight: 33 }, { pause: {} }] }));
    expect(finding?.summary).toContain(
      'waits at its promotion after the last step: it needs 3 canary pods beside 3 stable pods',
    );
  });

  it('says nothing where the quota holds the step beside them, where they were not all read, or where one is leaving', () => {
    expect(atRisk(pausedCanary({ quotaPods: 8 }))).toBeUndefined();
    // A pod of the namespace not read may charge the quota too: unknown, not empty.
    expect(atRisk(pausedCanary({ quotaPods: 7, podsReadOn: ['node-01'] }))).toBeUndefined();
    // A terminating pod is on its way out: 6 + 1 fits 7.
    expect(
      atRisk(
        pausedCanary({ quotaPods: 7, jobs: [jobPod('nightly-report-1'), jobPod('nightly-report-2', true)] }),
      ),
    ).toBeUndefined();
    // Our own pods alone over the limit is the bound's claim (RolloutStuck), not this warning.
    const own = diagnose(pausedCanary({ quotaPods: 5 })).findings.map((f) => f.code);
    expect(own).toContain('RolloutStuck');
    expect(own).not.toContain('RolloutAtRisk');
  });
});
