/**
 * kube-scheduler's VolumeBinding plugin, the part that ties a pod to a node through its
 * claims (pkg/scheduler/framework/plugins/volumebinding, DESIGN.md §4d):
 * - a claim bound to a PersistentVolume with `spec.nodeAffinity` (a local volume) admits
 *   only the nodes that affinity selects; elsewhere "node(s) had volume node affinity
 *   conflict" (ErrReasonNodeConflict, UnschedulableAndUnresolvable);
 * - an unbound claim of a WaitForFirstConsumer class is bound when the pod is: to an
 *   Available PV of its class whose node affinity admits the node and that is big enough,
 *   or, for a class with a provisioner, to a volume provisioned there when the class's
 *   allowedTopologies admit the node; with neither, "node(s) didn't find available
 *   persistent volumes to bind" (ErrReasonBindConflict).
 * Limits: the reasons are checked after the simulator's other filters (upstream,
 * VolumeBinding runs before PodTopologySpread and InterPodAffinity, so a node failing
 * both reports the volume); an Immediate class binds through the StatefulSet stand-in
 * (statefulset-pods.ts) and is not checked here; a provisioned volume is pinned to the
 * chosen node's zone when it has one (as a zonal CSI driver reports its topology), to
 * nothing otherwise.
 */
import type { Node, NodeSelectorTerm, Pod } from '../../src/diagnosis/k8s.js';
import { nowRfc3339 } from '../defaults.js';
import { resourceForKind } from '../resources.js';
import type { SimObject, Store } from '../store.js';
import { createObject } from '../writes.js';
import { schedulingAmount } from './quantity.js';
import { matchesNodeSelectorTerms, type FilterResult } from './scheduler-filters.js';

const PV_RT = resourceForKind('PersistentVolume');
const ZONE = 'topology.kubernetes.io/zone';

interface ClaimSpec {
  storageClassName?: string;
  volumeName?: string;
  accessModes?: string[];
  resources?: { requests?: { storage?: string } };
}
interface PvSpec {
  storageClassName?: string;
  claimRef?: { name?: string; namespace?: string };
  nodeAffinity?: { required?: { nodeSelectorTerms?: NodeSelectorTerm[] } };
  capacity?: { storage?: string };
}

const NODE_CONFLICT: FilterResult = {
  reasons: ['node(s) had volume node affinity conflict'],
  unresolvable: true,
};
const BIND_CONFLICT: FilterResult = {
  reasons: ["node(s) didn't find available persistent volumes to bind"],
  unresolvable: true,
};

function claimsOf(store: Store, pod: Pod): SimObject[] {
  return (pod.spec.volumes ?? []).flatMap((v) => {
    const name = v.persistentVolumeClaim?.claimName;
    const claim = name ? store.get('PersistentVolumeClaim', pod.metadata.namespace, name) : undefined;
    return claim ? [claim] : [];
  });
}

const specOf = <T>(o: SimObject | undefined): T => (o?.['spec'] ?? {}) as T;

function admits(pv: SimObject, node: Node): boolean {
  const terms = specOf<PvSpec>(pv).nodeAffinity?.required?.nodeSelectorTerms;
  return terms === undefined || matchesNodeSelectorTerms(node, terms);
}

function classOf(store: Store, claim: SimObject): SimObject | undefined {
  const name = specOf<ClaimSpec>(claim).storageClassName;
  return name ? store.get('StorageClass', undefined, name) : undefined;
}

function waitsForConsumer(store: Store, claim: SimObject): boolean {
  return classOf(store, claim)?.['volumeBindingMode'] === 'WaitForFirstConsumer';
}

/** An Available PV of the claim's class, big enough, unclaimed, whose affinity admits the node. */
function matchingVolume(
  store: Store,
  claim: SimObject,
  node: Node,
  taken: Set<string>,
): SimObject | undefined {
  const spec = specOf<ClaimSpec>(claim);
  const want = schedulingAmount('storage', spec.resources?.requests?.storage ?? '0');
  return store
    .list('PersistentVolume')
    .filter((pv) => !taken.has(pv.metadata.name))
    .find((pv) => {
      const pvSpec = specOf<PvSpec>(pv);
      const phase = (pv['status'] as { phase?: string } | undefined)?.phase ?? 'Available';
      return (
        phase === 'Available' &&
        pvSpec.claimRef?.name === undefined &&
        pvSpec.storageClassName === spec.storageClassName &&
        schedulingAmount('storage', pvSpec.capacity?.storage ?? '0') >= want &&
        admits(pv, node)
      );
    });
}

/** The class may provision on the node: a provisioner, and allowedTopologies (if any) admitting it. */
function provisionable(cls: SimObject | undefined, node: Node): boolean {
  if (!cls || cls['provisioner'] === 'kubernetes.io/no-provisioner') return false;
  const topologies = cls['allowedTopologies'] as
    { matchLabelExpressions?: { key: string; values: string[] }[] }[] | undefined;
  if (!topologies || topologies.length === 0) return true;
  const labels = node.metadata.labels ?? {};
  return topologies.some((t) =>
    (t.matchLabelExpressions ?? []).every((e) => e.values.includes(labels[e.key] ?? '')),
  );
}

/** VolumeBinding's Filter for one node: undefined when the pod's claims admit it. */
export function volumeFilter(store: Store, pod: Pod, node: Node): FilterResult | undefined {
  const taken = new Set<string>();
  for (const claim of claimsOf(store, pod)) {
    const volumeName = specOf<ClaimSpec>(claim).volumeName;
    if (volumeName) {
      const pv = store.get('PersistentVolume', undefined, volumeName);
      if (pv && !admits(pv, node)) return NODE_CONFLICT;
      continue;
    }
    if (!waitsForConsumer(store, claim)) continue;
    const pv = matchingVolume(store, claim, node, taken);
    if (pv) taken.add(pv.metadata.name);
    else if (!provisionable(classOf(store, claim), node)) return BIND_CONFLICT;
  }
  return undefined;
}

/** PreBind: the pod's unbound WaitForFirstConsumer claims bound on `node` (a static PV, or one provisioned). */
export function bindVolumes(store: Store, pod: Pod, node: Node): void {
  const taken = new Set<string>();
  for (const claim of claimsOf(store, pod)) {
    if (specOf<ClaimSpec>(claim).volumeName || !waitsForConsumer(store, claim)) continue;
    const pv = matchingVolume(store, claim, node, taken) ?? provision(store, claim, node);
    if (!pv) continue;
    taken.add(pv.metadata.name);
    bind(store, claim, pv);
  }
}

function provision(store: Store, claim: SimObject, node: Node): SimObject | undefined {
  const cls = classOf(store, claim);
  if (!PV_RT || !cls || !provisionable(cls, node)) return undefined;
  const spec = specOf<ClaimSpec>(claim);
  const zone = node.metadata.labels?.[ZONE];
  return createObject(
    store,
    PV_RT,
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name: `pvc-${claim.metadata.uid ?? ''}`,
        annotations: { 'pv.kubernetes.io/provisioned-by': String(cls['provisioner'] ?? '') },
      },
      spec: {
        capacity: { storage: spec.resources?.requests?.storage ?? '1Gi' },
        accessModes: spec.accessModes ?? ['ReadWriteOnce'],
        storageClassName: spec.storageClassName,
        ...(zone
          ? {
              nodeAffinity: {
                required: {
                  nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] }],
                },
              },
            }
          : {}),
      },
      status: { phase: 'Available' },
    },
    undefined,
  );
}

function bind(store: Store, claim: SimObject, pv: SimObject): void {
  const boundPv = structuredClone(pv);
  boundPv['spec'] = {
    ...specOf<PvSpec>(pv),
    claimRef: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      namespace: claim.metadata.namespace,
      name: claim.metadata.name,
      uid: claim.metadata.uid,
    },
  };
  boundPv['status'] = { phase: 'Bound', lastPhaseTransitionTime: nowRfc3339() };
  store.put(boundPv);
  const boundClaim = structuredClone(claim);
  boundClaim.metadata.annotations = {
    ...(boundClaim.metadata.annotations ?? {}),
    'pv.kubernetes.io/bind-completed': 'yes',
  };
  boundClaim['spec'] = { ...specOf<ClaimSpec>(claim), volumeName: pv.metadata.name };
  boundClaim['status'] = {
    phase: 'Bound',
    accessModes: specOf<ClaimSpec>(claim).accessModes ?? ['ReadWriteOnce'],
    capacity: specOf<PvSpec>(pv).capacity ?? {},
  };
  store.put(boundClaim);
}
