/**
 * The candidate snapshot with the nodes a scale-up would add: copies of each growable
 * group's template node, as the cluster autoscaler builds its template node info
 * (utils/scheduler sanitizeNodeInfo: the node's labels with a new hostname, its taints
 * less the ones the autoscaler and the node lifecycle put on for a while, and the
 * DaemonSet pods of the template, which every new node runs too). Pure.
 */
import type { Node, Pod, Taint } from '../../diagnosis/k8s.js';
import type { WorkloadSnapshot } from '../../diagnosis/snapshot/types.js';
import type { GrowableGroup } from './node-groups.js';
import { WORKLOAD_KINDS } from '../../diagnosis/workload-ref.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';

const SCALE_UP_ANNOTATION = 'rollout-doctor.io/scale-up-of';

/** Taints a node has only for a while (not ready yet, being drained or scaled down), never a new node's. */
const PASSING_TAINTS = new Set([
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/unschedulable',
  'node.kubernetes.io/network-unavailable',
  'node.kubernetes.io/disk-pressure',
  'node.kubernetes.io/memory-pressure',
  'node.kubernetes.io/pid-pressure',
  'node.cloudprovider.kubernetes.io/uninitialized',
  'ToBeDeletedByClusterAutoscaler',
  'DeletionCandidateOfClusterAutoscaler',
  'karpenter.sh/disrupted',
  'karpenter.sh/disruption',
]);

/** `snapshot` with up to `perGroup` new nodes for each group that can grow and has a template. */
export function withNewNodes(
  snapshot: WorkloadSnapshot,
  groups: readonly GrowableGroup[],
  perGroup: number,
): { snapshot: WorkloadSnapshot; added: { group: GrowableGroup; nodes: number }[] } {
  const nodes: Node[] = [];
  const pods: Pod[] = [];
  const added: { group: GrowableGroup; nodes: number }[] = [];
  const readOn = snapshot.coverage.podsReadOn;
  for (const group of groups) {
    const template = group.template;
    const count = Math.min(group.canAdd, perGroup);
    if (!template || count <= 0) continue;
    // A template whose pods were not read gives new nodes of unknown occupancy: not added.
    if (readOn !== 'all' && !readOn.includes(template.metadata.name ?? '')) continue;
    const daemons = snapshot.otherPods.filter(
      (p) => p.spec?.nodeName === template.metadata.name && isDaemonPod(p),
    );
    for (let i = 1; i <= count; i++) {
      const node = newNode(template, group, i);
      nodes.push(node);
      pods.push(...daemons.map((p) => onNode(p, node.metadata.name ?? '')));
    }
    added.push({ group, nodes: count });
  }
  if (nodes.length === 0) return { snapshot, added };
  const names = nodes.map((n) => n.metadata.name ?? '');
  return {
    snapshot: {
      ...snapshot,
      nodes: [...snapshot.nodes, ...nodes],
      otherPods: [...snapshot.otherPods, ...pods],
      coverage: { ...snapshot.coverage, podsReadOn: readOn === 'all' ? 'all' : [...readOn, ...names] },
    },
    added,
  };
}

function newNode(template: Node, group: GrowableGroup, i: number): Node {
  const name = `${slug(group.name)}-scale-up-${i}`;
  const labels = { ...template.metadata.labels, 'kubernetes.io/hostname': name };
  const taints = (template.spec?.taints ?? []).filter((t: Taint) => !PASSING_TAINTS.has(t.key));
  return {
    ...template,
    metadata: { name, labels, annotations: { [SCALE_UP_ANNOTATION]: group.name } },
    spec: { ...template.spec, unschedulable: false, taints },
    status: {
      ...template.status,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** Kinds that run a pod on every node they select (DaemonSets): a new node runs theirs too. */
const PER_NODE_KINDS: ReadonlySet<string> = new Set(
  WORKLOAD_KINDS.filter((k) => workloadKind(k).pinnedToNodes),
);

function isDaemonPod(pod: Pod): boolean {
  return (pod.metadata.ownerReferences ?? []).some(
    (o) => o.controller === true && PER_NODE_KINDS.has(o.kind),
  );
}

function onNode(pod: Pod, node: string): Pod {
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      name: `${pod.metadata.name ?? 'pod'}-${node}`,
      uid: `${pod.metadata.uid ?? ''}-${node}`,
    },
    spec: { ...pod.spec, nodeName: node },
  } as Pod;
}

/** A node name from a group name (a MIG URL's last part, lower case, DNS-safe). */
function slug(name: string): string {
  const last = name.split('/').filter(Boolean).pop() ?? 'group';
  const cleaned = last
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return (cleaned || 'group').slice(0, 40);
}
