import { describe, expect, it } from 'vitest';
import { labelSelectorString } from '../../src/kube/label-selector.js';
import { pickLogTargets } from '../../src/kube/read/log-tails.js';
import { asksForScarce } from '../../src/diagnosis/base/scarce.js';
import {
  eligibleNodeSelector,
  hostnameSelector,
  nodesForOtherPods,
} from '../../src/kube/read/node-queries.js';
import { crashLoopIn, newReplicaSet, rolloutProgress } from '../../src/kube/watch/new-replicaset-pods.js';
import { makeDeployment, makeNode, makePod, makeReplicaSet } from '../support/k8s-builders.js';

describe('selectors the collector sends', () => {
  it('turns a Deployment selector into a labelSelector query', () => {
    expect(
      labelSelectorString({
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a', 'b'] },
          { key: 'legacy', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('app=web,tier in (a,b),!legacy');
  });

  it('maps nodeSelector and a single required affinity term to a node label selector', () => {
    expect(
      eligibleNodeSelector({
        containers: [],
        nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-1' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'pool', operator: 'NotIn', values: ['spot'] },
                    { key: 'cpu-count', operator: 'Gt', values: ['4'] },
                  ],
                },
              ],
            },
          },
        },
      }),
    ).toBe('kubernetes.io/hostname=gpu-node-1,pool notin (spot)');
  });

  it('leaves ORed terms and unconstrained templates to client-side filtering', () => {
    const terms = [
      { matchExpressions: [{ key: 'a', operator: 'Exists' }] },
      { matchExpressions: [{ key: 'b', operator: 'Exists' }] },
    ];
    expect(
      eligibleNodeSelector({
        containers: [],
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
        },
      }),
    ).toBeUndefined();
    expect(eligibleNodeSelector({ containers: [] })).toBeUndefined();
    expect(hostnameSelector(['node-a', 'node-b'])).toBe('kubernetes.io/hostname in (node-a,node-b)');
  });

  it('knows scarce asks and ranks nodes that offer the extended resource first', () => {
    const spec = { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': 1 } } }] };
    expect(asksForScarce(spec, [])).toBe(true);
    expect(asksForScarce({ containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] }, [])).toBe(
      false,
    );
    expect(asksForScarce({ containers: [{ name: 'c' }] }, ['data'])).toBe(true);
    const nodes = [makeNode('a'), makeNode('b', { allocatable: { 'nvidia.com/gpu': '1' } }), makeNode('c')];
    expect(nodesForOtherPods(nodes, spec, 2)).toEqual(['b', 'a']);
  });
});

describe('log tails', () => {
  it('reads one previous log per node and container, only for crashing containers', () => {
    const deployment = makeDeployment('checkout', { namespace: 'shop', replicas: 4 });
    const rs = makeReplicaSet(deployment, 'abc');
    const pods = [
      makePod(rs, '1', 'node-b', { phase: 'CrashLoopBackOff', restarts: 5 }),
      makePod(rs, '2', 'node-b', { phase: 'CrashLoopBackOff', restarts: 4 }),
      makePod(rs, '3', 'node-a', { phase: 'Running' }),
      makePod(rs, '4', 'node-c', { phase: 'CrashLoopBackOff', restarts: 2 }),
    ];
    expect(pickLogTargets(pods)).toEqual([
      { pod: 'checkout-abc-1', container: 'checkout' },
      { pod: 'checkout-abc-4', container: 'checkout' },
    ]);
  });
});

describe('rollout status', () => {
  it('follows kubectl rollout status', () => {
    const d = makeDeployment('web', { replicas: 3, generation: 5 });
    expect(rolloutProgress(d).state).toBe('complete');
    expect(rolloutProgress(d, 6).state).toBe('progressing');
    const lagging = structuredClone(d);
    lagging.status = { ...lagging.status, observedGeneration: 4 };
    expect(rolloutProgress(lagging).progress.message).toBe(
      'Waiting for deployment spec update to be observed...',
    );
    const old = structuredClone(d);
    old.status = { ...old.status, replicas: 4, updatedReplicas: 3 };
    expect(rolloutProgress(old).progress.message).toContain('1 old replicas are pending termination');
    const unavailable = structuredClone(d);
    unavailable.status = { ...unavailable.status, availableReplicas: 2 };
    expect(rolloutProgress(unavailable).progress.message).toContain('2 of 3 updated replicas are available');
    const dead = structuredClone(d);
    dead.status = {
      ...dead.status,
      updatedReplicas: 1,
      conditions: [
        { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'too slow' },
      ],
    };
    expect(rolloutProgress(dead)).toMatchObject({ state: 'failed', reason: 'too slow' });
  });

  it('finds the new ReplicaSet by revision and a crash loop among its pods', () => {
    const d = makeDeployment('web', { generation: 3 });
    const oldRs = makeReplicaSet(d, 'old', { revision: 2 });
    const newRs = makeReplicaSet(d, 'new', { revision: 3 });
    expect(newReplicaSet(d, [oldRs, newRs])?.metadata.name).toBe('web-new');
    expect(crashLoopIn([makePod(newRs, 'x', 'n1', { phase: 'Running' })])).toBeUndefined();
    expect(
      crashLoopIn([makePod(newRs, 'x', 'n1', { phase: 'CrashLoopBackOff', restarts: 3, exitCode: 2 })]),
    ).toContain('pod web-new-x on n1: container web CrashLoopBackOff, last exit 2');
  });
});
