/**
 * The placement model's pod-to-pod rules count pods of the right namespace only, as the
 * scheduler does: a required anti-affinity term without `namespaces` selects pods of
 * the term owner's namespace (InterPodAffinity), and a ReadWriteOncePod claim is held
 * only by a pod of the claim's namespace that mounts it. A pod of another namespace
 * with the same labels, or a claim of the same name, is no holder.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { placementContext } from '../../src/diagnosis/placement/placement.js';
import { antiAffinityBlockers, volumeBlockers } from '../../src/diagnosis/placement/placement-pod-rules.js';
import { makeNode, makePvc } from '../support/k8s-builders.js';
import { pendingRolloutSnapshot, rollout } from '../support/rollout-scenarios.js';

/** A copy of `pod` in namespace `namespace`, on `node`. */
function copyIn(pod: Pod, namespace: string, node: string): Pod {
  const copy = structuredClone(pod);
  copy.metadata = { ...copy.metadata, namespace, name: `${namespace}-copy`, uid: `${namespace}-copy` };
  copy.spec.nodeName = node;
  return copy;
}

describe('placement counts pods of the right namespace', () => {
  it('anti-affinity: a pod with the same labels in another namespace does not keep the surge pod off its node', () => {
    const parts = rollout('zk', {
      oldNodes: ['w1', 'w2'],
      podSpec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'zk' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      },
    });
    const nodes = ['w1', 'w2', 'w3'].map((n) => makeNode(n));
    const old = parts.oldPods[0] as Pod;
    const pending = parts.newPods[0] as Pod;
    const blockersOnW3 = (other: Pod): unknown[] => {
      const snapshot = pendingRolloutSnapshot(
        parts,
        nodes,
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.",
        {
          otherPods: [other],
        },
      );
      const w3 = snapshot.nodes.find((n) => n.metadata.name === 'w3');
      if (!w3) throw new Error('w3');
      return antiAffinityBlockers(placementContext(new AnalysisContext(snapshot)), pending, w3, new Set());
    };
    expect(blockersOnW3(copyIn(old, 'staging', 'w3'))).toEqual([]);
    expect(blockersOnW3(copyIn(old, old.metadata.namespace ?? '', 'w3'))).toMatchObject([
      { kind: 'anti-affinity', domain: 'w3' },
    ]);
  });

  it('ReadWriteOncePod: a pod of another namespace mounting a claim of the same name holds nothing', () => {
    const parts = rollout('db', {
      oldNodes: ['w1'],
      podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    const old = parts.oldPods[0] as Pod;
    const pending = parts.newPods[0] as Pod;
    const namespace = old.metadata.namespace ?? '';
    const blockers = (holder: Pod): unknown[] => {
      const snapshot = pendingRolloutSnapshot(
        { ...parts, oldPods: [] },
        ['w1', 'w2'].map((n) => makeNode(n)),
        '0/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode.',
        { otherPods: [holder], pvcs: [makePvc('data', namespace, { accessModes: ['ReadWriteOncePod'] })] },
      );
      return volumeBlockers(
        placementContext(new AnalysisContext(snapshot)),
        pending,
        makeNode('w1'),
        new Set(),
      );
    };
    expect(blockers(copyIn(old, 'staging', 'w2'))).toEqual([]);
    expect(blockers(copyIn(old, namespace, 'w2'))).toMatchObject([
      { kind: 'volume', problem: 'in-use-rwop' },
    ]);
  });
});
