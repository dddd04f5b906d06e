/**
 * A snapshot for one Deployment carved out of per-namespace lists (scan), instead of
 * the collector's targeted reads. Pure.
 */
import type {
  Deployment,
  KubeEvent,
  Node,
  PersistentVolumeClaim,
  Pod,
  ReplicaSet,
} from '../diagnosis/k8s.js';
import { selectsNode } from '../diagnosis/node-match.js';
import type { AccessProblem, WorkloadSnapshot } from '../diagnosis/snapshot.js';
import { ownedBy, revisionOf } from './owner-references.js';

export interface NamespaceObjects {
  replicaSets: ReplicaSet[];
  pods: Pod[];
  events: KubeEvent[];
  pvcs: PersistentVolumeClaim[];
}

export function buildScanSnapshot(
  deployment: Deployment,
  objects: NamespaceObjects,
  nodeList: { items: Node[]; truncated: boolean },
  otherPods: Pod[],
  accessProblems: AccessProblem[],
): WorkloadSnapshot {
  const uid = deployment.metadata.uid ?? '';
  const replicaSets = objects.replicaSets
    .filter((rs) => ownedBy(rs, uid))
    .sort((a, b) => revisionOf(b) - revisionOf(a));
  const rsUids = new Set(replicaSets.map((rs) => rs.metadata.uid ?? ''));
  const pods = objects.pods.filter((p) =>
    (p.metadata.ownerReferences ?? []).some((o) => o.controller && rsUids.has(o.uid)),
  );
  const podUids = new Set(pods.map((p) => p.metadata.uid ?? ''));
  const ours = new Set([uid, ...rsUids, ...podUids]);
  const spec = deployment.spec.template.spec;
  const podNodes = new Set(pods.map((p) => p.spec.nodeName).filter(Boolean));
  const nodes = nodeList.items.filter((n) => selectsNode(n, spec) || podNodes.has(n.metadata.name));
  const claims = new Set(
    (spec.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [])),
  );
  return {
    target: {
      kind: 'Deployment',
      namespace: deployment.metadata.namespace ?? '',
      name: deployment.metadata.name ?? '',
    },
    capturedAt: new Date().toISOString(),
    deployment,
    replicaSets,
    pods,
    events: objects.events.filter(
      (e) => e.involvedObject.uid !== undefined && ours.has(e.involvedObject.uid),
    ),
    nodes,
    nodesComplete: !nodeList.truncated,
    pvcs: objects.pvcs.filter((p) => claims.has(p.metadata.name ?? '')),
    otherPods: otherPods.filter((p) => !podUids.has(p.metadata.uid ?? '')),
    logs: {},
    accessProblems: [...accessProblems],
  };
}
