/**
 * Which objects belong to a workload's diagnosis. One function for the live
 * collector, `scan` and dumps (DESIGN.md §2): src/kube only fetches, this decides, so
 * the three paths give the same diagnosis for the same objects. Which revision objects
 * and pods are the workload's own is its kind module's answer (`own`).
 */
import { admittedSpec } from './admitted-spec.js';
import { asCoreEvent } from '../base/event-shape.js';
import type { KubeEvent, Node, ObjectMeta, Pod } from '../k8s.js';
import type { PersistentVolumeClaim } from '../k8s-storage.js';
import { selectsNode } from '../base/node-match.js';
import { claimNames } from '../base/pod-constraints.js';
import type {
  AccessProblem,
  Coverage,
  DraObjects,
  RevisionObject,
  WorkloadObject,
  WorkloadRef,
  WorkloadSnapshot,
} from '../snapshot/types.js';
import type { WorkloadKind } from '../workload-ref.js';
import { isTerminal, isUnscheduled } from '../base/pods.js';
import { workloadKind } from './index.js';
import { quotaRefusals, type QuotaRefusal } from '../base/quota-refusals.js';

/** Objects as read: candidates, possibly of other workloads, namespaces and nodes. */
interface ReadObjects {
  /** Objects holding revisions (a Deployment's ReplicaSets): the kind module picks its own. */
  revisions: readonly RevisionObject[];
  pods: readonly Pod[];
  /** core/v1 or events.k8s.io/v1 events. */
  events: readonly KubeEvent[];
  pvcs: readonly PersistentVolumeClaim[];
  nodes: readonly Node[];
  /** Pods of any workload bound to the nodes read (may include ours). */
  neighbours: readonly Pod[];
  /** DRA objects as read (claims of every namespace, slices, classes, templates); absent: not read. */
  dra?: DraObjects;
}

interface SelectOptions {
  capturedAt: string;
  coverage: Coverage;
  logs?: Record<string, string>;
  accessProblems?: readonly AccessProblem[];
}

/** The workload's snapshot out of what was read. Pure. */
export function selectWorkload(
  kindName: WorkloadKind,
  object: WorkloadObject,
  read: ReadObjects,
  options: SelectOptions,
): WorkloadSnapshot {
  const kind = workloadKind(kindName);
  const target: WorkloadRef = {
    kind: kindName,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name ?? '',
  };
  // A hand-written dump may omit namespaces: such objects count as the workload's.
  const here = (meta: ObjectMeta): boolean => (meta.namespace ?? target.namespace) === target.namespace;
  const { revisions, pods } = kind.own(object, read, here);
  const objects = kind.objects(object, revisions);
  const involved = [
    { kind: kindName, meta: object.metadata },
    ...revisions.map((r) => ({ kind: kind.revisionObjects.kind, meta: r.metadata })),
    ...pods.map((p) => ({ kind: 'Pod', meta: p.metadata })),
  ];
  const { spec } = admittedSpec({ target, ...objects, pods });
  const template = kind.podTemplate(object).spec;
  // A DaemonSet's pods are each pinned to their node: the nodes it should run on are
  // the ones its template selects, with a pod of ours there or not (yet).
  const perNode = kind.strategy(object).per === 'node';
  const nodes = relevantNodes(read.nodes, pods, perNode ? [spec, template] : [spec]);
  const mounted = new Set([template, ...pods.map((p) => p.spec)].flatMap(claimNames));
  const pvcs = read.pvcs.filter((pvc) => here(pvc.metadata) && mounted.has(pvc.metadata.name ?? ''));
  // Other workloads' pods matter for what is scarce and for the room an exclude-node
  // plan leaves (a crash loop that may be node-local).
  // Whatever was read of them is kept: coverage.podsReadOn says their nodes' occupancy
  // is known, and the forward model places pods on those nodes (a quota-refused rollout
  // has no Pending pod, yet what fits once admitted turns on them).
  const others = otherPods(read.neighbours, pods, nodes);
  const events = namespaceEvents(read.events, target.namespace);
  const about = isAbout(involved);

  return {
    target,
    capturedAt: options.capturedAt,
    ...objects,
    pods,
    events: events.filter(about),
    // Read from the namespace's events before they are narrowed to the workload's own.
    ...withQuotaRefusals(quotaRefusals(events, target.namespace, about)),
    nodes,
    nodesComplete: options.coverage.nodes === 'complete',
    pvcs,
    otherPods: others,
    namespacePods: namespacePods(read.neighbours, pods, target.namespace),
    pendingPods: pendingPods(read.neighbours, pods),
    logs: { ...options.logs },
    accessProblems: [...(options.accessProblems ?? [])],
    coverage: options.coverage,
    ...(read.dra
      ? {
          dra: {
            // Claims of every namespace can hold devices on the nodes: all are kept.
            claims: [...read.dra.claims],
            templates: read.dra.templates.filter((t) => here(t.metadata)),
            slices: [...read.dra.slices],
            classes: [...read.dra.classes],
          },
        }
      : {}),
  };
}

const withQuotaRefusals = (found: QuotaRefusal[]): { quotaRefusals?: QuotaRefusal[] } =>
  found.length > 0 ? { quotaRefusals: found } : {};

/** The namespace's events, as core/v1 events. */
function namespaceEvents(read: readonly KubeEvent[], namespace: string): KubeEvent[] {
  return read
    .map(asCoreEvent)
    .filter((e) => (e.involvedObject.namespace ?? e.metadata.namespace ?? namespace) === namespace);
}

/** Whether an event is about one of `involved` (by uid, else by kind and name). */
function isAbout(involved: readonly { kind: string; meta: ObjectMeta }[]): (e: KubeEvent) => boolean {
  return (e) =>
    involved.some((o) =>
      e.involvedObject.uid && o.meta.uid
        ? e.involvedObject.uid === o.meta.uid
        : e.involvedObject.kind === o.kind && e.involvedObject.name === o.meta.name,
    );
}

/**
 * The nodes our pods run on and those the pods as admitted (`specs`) may use. A Pending pod of
 * an older template (recreated by its ReplicaSet after an eviction) may select other
 * nodes than the current one: its verdict needs those too.
 */
function relevantNodes(read: readonly Node[], pods: readonly Pod[], specs: readonly Pod['spec'][]): Node[] {
  const usedNodes = new Set(pods.map((p) => p.spec.nodeName).filter((n): n is string => Boolean(n)));
  const waiting = pods.filter(isUnscheduled);
  return dedupeNodes(read).filter(
    (n) =>
      usedNodes.has(n.metadata.name ?? '') ||
      specs.some((spec) => selectsNode(n, spec)) ||
      waiting.some((p) => selectsNode(n, p.spec)),
  );
}

/** Other live pods of the namespace, on any node, each once (what its quotas charge). */
function namespacePods(neighbours: readonly Pod[], pods: readonly Pod[], namespace: string): Pod[] {
  const ours = new Set(pods.map((p) => p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`));
  const seen = new Set<string>();
  return neighbours.filter((p) => {
    const key = p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`;
    if (ours.has(key) || seen.has(key)) return false;
    seen.add(key);
    return (p.metadata.namespace ?? namespace) === namespace && !isTerminal(p);
  });
}

/** Other workloads' pods waiting for a node, each once (they compete with ours for room). */
function pendingPods(neighbours: readonly Pod[], pods: readonly Pod[]): Pod[] {
  const ours = new Set(pods.map((p) => p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`));
  const seen = new Set<string>();
  return neighbours.filter((p) => {
    const key = p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`;
    if (ours.has(key) || seen.has(key)) return false;
    seen.add(key);
    return isUnscheduled(p) && !isTerminal(p) && !p.metadata.deletionTimestamp;
  });
}

/** Other workloads' live pods bound to the nodes kept, each once. */
export function otherPods(neighbours: readonly Pod[], pods: readonly Pod[], nodes: readonly Node[]): Pod[] {
  const ours = new Set(pods.map((p) => p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`));
  const nodeNames = new Set(nodes.map((n) => n.metadata.name ?? ''));
  const seen = new Set<string>();
  return neighbours.filter((p) => {
    const key = p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`;
    if (ours.has(key) || seen.has(key)) return false;
    seen.add(key);
    return p.spec.nodeName !== undefined && nodeNames.has(p.spec.nodeName) && !isTerminal(p);
  });
}

function dedupeNodes(nodes: readonly Node[]): Node[] {
  const byName = new Map<string, Node>();
  for (const node of nodes) byName.set(node.metadata.name ?? '', node);
  return [...byName.values()].sort((x, y) => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''));
}
