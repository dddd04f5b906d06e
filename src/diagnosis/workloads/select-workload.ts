/**
 * Which objects belong to a Deployment's diagnosis. One function for the live
 * collector, `scan` and dumps (DESIGN.md §2): src/kube only fetches, this decides, so
 * the three paths give the same diagnosis for the same objects.
 */
import { admittedSpec } from './admitted-spec.js';
import { asCoreEvent } from '../base/event-shape.js';
import type { Deployment, KubeEvent, Node, PersistentVolumeClaim, Pod, ReplicaSet } from '../k8s.js';
import { selectsNode } from '../base/node-match.js';
import { claimNames } from '../base/pod-constraints.js';
import { neighboursMatter } from '../base/scarce.js';
import { crashNodesOf } from '../base/crash-nodes.js';
import type { AccessProblem, Coverage, DraObjects, WorkloadRef, WorkloadSnapshot } from '../snapshot.js';
import { isTerminal, isUnscheduled } from '../base/pods.js';

/** Objects as read: candidates, possibly of other workloads, namespaces and nodes. */
export interface ReadObjects {
  replicaSets: readonly ReplicaSet[];
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

export interface SelectOptions {
  capturedAt: string;
  coverage: Coverage;
  logs?: Record<string, string>;
  accessProblems?: readonly AccessProblem[];
}

type Meta = { name?: string; namespace?: string; uid?: string; ownerReferences?: OwnerRef[] };
type OwnerRef = { kind: string; name: string; uid: string; controller?: boolean };

/** The Deployment's snapshot out of what was read. Pure. */
export function selectWorkload(
  deployment: Deployment,
  read: ReadObjects,
  options: SelectOptions,
): WorkloadSnapshot {
  const target: WorkloadRef = {
    kind: 'Deployment',
    namespace: deployment.metadata.namespace ?? '',
    name: deployment.metadata.name ?? '',
  };
  // A hand-written dump may omit namespaces: such objects count as the Deployment's.
  const here = (meta: Meta): boolean => (meta.namespace ?? target.namespace) === target.namespace;

  const replicaSets = read.replicaSets
    .filter((rs) => here(rs.metadata) && controlledBy(rs.metadata, 'Deployment', deployment.metadata))
    .sort(byRevisionDesc);
  const pods = read.pods.filter(
    (p) => here(p.metadata) && replicaSets.some((rs) => controlledBy(p.metadata, 'ReplicaSet', rs.metadata)),
  );

  const involved = [
    { kind: 'Deployment', meta: deployment.metadata as Meta },
    ...replicaSets.map((rs) => ({ kind: 'ReplicaSet', meta: rs.metadata as Meta })),
    ...pods.map((p) => ({ kind: 'Pod', meta: p.metadata as Meta })),
  ];
  const events = read.events
    .map(asCoreEvent)
    .filter(
      (e) => (e.involvedObject.namespace ?? e.metadata.namespace ?? target.namespace) === target.namespace,
    )
    .filter((e) =>
      involved.some((o) =>
        e.involvedObject.uid && o.meta.uid
          ? e.involvedObject.uid === o.meta.uid
          : e.involvedObject.kind === o.kind && e.involvedObject.name === o.meta.name,
      ),
    );

  const { spec } = admittedSpec({ deployment, replicaSets, pods });
  const usedNodes = new Set(pods.map((p) => p.spec.nodeName).filter((n): n is string => Boolean(n)));
  // A Pending pod of an older template (recreated by its ReplicaSet after an eviction)
  // may select other nodes than the current one: its verdict needs those too.
  const waiting = pods.filter(isUnscheduled);
  const nodes = dedupeNodes(read.nodes).filter(
    (n) =>
      usedNodes.has(n.metadata.name ?? '') ||
      selectsNode(n, spec) ||
      waiting.some((p) => selectsNode(n, p.spec)),
  );

  const mounted = new Set([deployment.spec.template.spec, ...pods.map((p) => p.spec)].flatMap(claimNames));
  const pvcs = read.pvcs.filter((pvc) => here(pvc.metadata) && mounted.has(pvc.metadata.name ?? ''));

  const ours = new Set(pods.map((p) => p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`));
  const nodeNames = new Set(nodes.map((n) => n.metadata.name ?? ''));
  const seen = new Set<string>();
  // Other workloads' pods matter for what is scarce and for the room an exclude-node
  // plan leaves (a crash loop that may be node-local).
  const otherPods =
    neighboursMatter(spec, pods, pvcs) || crashNodesOf(pods) !== undefined
      ? read.neighbours.filter((p) => {
          const key = p.metadata.uid ?? `${p.metadata.namespace}/${p.metadata.name}`;
          if (ours.has(key) || seen.has(key)) return false;
          seen.add(key);
          return p.spec.nodeName !== undefined && nodeNames.has(p.spec.nodeName) && !isTerminal(p);
        })
      : [];

  return {
    target,
    capturedAt: options.capturedAt,
    deployment,
    replicaSets,
    pods,
    events,
    nodes,
    nodesComplete: options.coverage.nodes === 'complete',
    pvcs,
    otherPods,
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

/** The controller owner reference, by uid; by kind and name when the dump has no uids. */
function controlledBy(child: Meta, kind: string, owner: Meta): boolean {
  return (child.ownerReferences ?? []).some((ref) =>
    owner.uid && ref.uid
      ? ref.uid === owner.uid && ref.controller !== false
      : ref.kind === kind && ref.name === owner.name,
  );
}

function revision(rs: ReplicaSet): number {
  const value = Number(rs.metadata.annotations?.['deployment.kubernetes.io/revision']);
  return Number.isFinite(value) ? value : -1;
}

function byRevisionDesc(a: ReplicaSet, b: ReplicaSet): number {
  return (
    revision(b) - revision(a) ||
    (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '')
  );
}

function dedupeNodes(nodes: readonly Node[]): Node[] {
  const byName = new Map<string, Node>();
  for (const node of nodes) byName.set(node.metadata.name ?? '', node);
  return [...byName.values()].sort((x, y) => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''));
}
