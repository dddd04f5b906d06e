/**
 * The shapes the forward model runs a workload in (run.ts buildModel): a ReplicaSet-like
 * count of replicas, or one pod per selected node; and the pod templates as their
 * controllers create them (unbound; a DaemonSet's with the tolerations its controller adds).
 */
import type { Node, Pod } from '../k8s.js';
import { selectsNode, untoleratedTaints } from '../base/node-match.js';
import type { Revisions } from '../workloads/index.js';
import type { ResolvedStrategy } from '../resolved-strategy.js';
import type { Shape } from './model.js';

/** The Deployment-like counts, from what buildModel already derived (the revisions are read once). */
export function replicaShape(
  replicas: number,
  strategy: ResolvedStrategy,
  revisions: Revisions,
  next: boolean,
): Shape {
  const { current, old } = revisions;
  const liveCount = (pods: Pod[]): number => pods.filter((p) => !p.metadata.deletionTimestamp).length;
  return {
    kind: 'replicas',
    replicas,
    maxSurge: strategy.maxSurge?.value ?? 0,
    maxUnavailable: strategy.maxUnavailable?.value ?? 0,
    recreate: strategy.type === 'Recreate',
    newSpec: current && !next ? (current.desired ?? liveCount(current.pods)) : 0,
    oldSpec: [...old, ...(next && current ? [current] : [])].reduce(
      (sum, r) => sum + (r.desired ?? liveCount(r.pods)),
      0,
    ),
  };
}

export function perNodeShape(nodes: Node[], template: Pod, strategy: ResolvedStrategy): Shape {
  const selected = nodes.filter((n) => selectsNode(n, template.spec));
  return {
    kind: 'per-node',
    // nodeShouldRunDaemonPod: selected, every NoSchedule/NoExecute taint tolerated (cordons are).
    nodes: selected.filter((n) => untoleratedTaints(n, template.spec).length === 0),
    // …and shouldContinueRunning: only an untolerated NoExecute taint evicts.
    keep: selected.filter((n) => !untoleratedTaints(n, template.spec).some((t) => t.effect === 'NoExecute')),
    maxSurge: strategy.maxSurge?.value ?? 0,
    maxUnavailable: strategy.maxUnavailable?.value ?? 1,
  };
}

export function unbound(pod: Pod): Pod {
  const { nodeName: _bound, ...spec } = pod.spec;
  return { metadata: { ...pod.metadata }, spec };
}
