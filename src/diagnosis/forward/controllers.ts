/**
 * The controllers' next steps, as pure functions of the model:
 * - the Deployment controller's rolling update (pkg/controller/deployment/rolling.go:
 *   NewRSNewReplicas within replicas + maxSurge; reconcileOldReplicaSets down to
 *   replicas - maxUnavailable available, unhealthy old pods first, never counting a new
 *   pod that is not available), and Recreate (recreate.go: old pods all gone first);
 * - the ReplicaSet controller (replica_set.go: creates what is missing, each create
 *   through quota admission; deletes the surplus, unscheduled and not-Ready pods first);
 * - the DaemonSet controller's rolling update per node (pkg/controller/daemon/update.go:
 *   with maxSurge a new pod beside the old one, the old one deleted once the new one is
 *   available; without, old pods deleted within maxUnavailable, unavailable ones first,
 *   and the manage loop creating a node's missing pod at once, while the old one is
 *   still terminating).
 * An Argo Rollout's basic canary is modelled as the rolling update its bounds make.
 */
import type { Pod } from '../k8s.js';
import type { Model, ModelPod, PerNodeShape, ReplicaShape } from './model.js';
import { countReady, live } from './model.js';
import type { PodPhase } from './pod-phase.js';
import { deletionCost } from '../rollout/deletion-order.js';

let serial = 0;

/** Deletes a pod: an unbound one goes at once, a bound one terminates (gone next tick). */
export function deletePod(model: Model, target: ModelPod): void {
  model.changes += 1;
  if (target.phase === 'pending') {
    model.pods.delete(target);
    model.world.charge(target.pod, -1);
    return;
  }
  model.pods.setPhase(target, 'terminating');
  if (target.revision === 'old')
    model.steps.push({ kind: 'old-removed', pod: target.pod.metadata.name ?? '' });
}

/** Creates one pod through quota admission; false when the quota refuses it. */
function createPod(model: Model, revision: 'new' | 'old', target?: string): boolean {
  const template = revision === 'new' ? model.newTemplate : (model.oldTemplate ?? model.newTemplate);
  serial += 1;
  const named = {
    ...template,
    metadata: { ...template.metadata, name: `${template.metadata.name ?? ''}-${serial}` },
  };
  const pod = target ? pinnedTo(named, target) : named;
  const refusing = model.world.refusing(pod);
  if (refusing) {
    model.refused += 1;
    model.refusedBy = refusing;
    return false;
  }
  if (model.refused > 0 && model.refusedBy)
    model.steps.push({ kind: 'admitted', quota: model.refusedBy.name });
  model.world.charge(pod, 1);
  model.changes += 1;
  model.pods.add({ pod, revision, phase: 'pending', made: true, ...(target ? { target } : {}) });
  return true;
}

/**
 * A DaemonSet pod as its controller makes it for one node: the required node affinity
 * replaced by the node's name (ReplaceDaemonSetPodNodeNameNodeAffinity).
 */
function pinnedTo(pod: Pod, node: string): Pod {
  const nodeAffinity = {
    ...pod.spec.affinity?.nodeAffinity,
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
    },
  };
  return { ...pod, spec: { ...pod.spec, affinity: { ...pod.spec.affinity, nodeAffinity } } };
}

/** The ReplicaSet controller's deletion order: unscheduled, then not Ready, then Ready. */
const DELETE_ORDER: readonly PodPhase[] = ['pending', 'failing', 'starting', 'ready'];

function reconcileReplicaSet(model: Model, revision: 'new' | 'old', spec: number): void {
  const count = model.pods.liveCount(revision);
  if (count < spec) {
    for (let i = count; i < spec; i += 1) if (!createPod(model, revision)) break;
  } else if (count > spec) {
    for (const pod of deletionOrder(model, revision).slice(0, count - spec)) deletePod(model, pod);
  }
}

/** Go's string order (bytes), as `s.Pods[i].UID < s.Pods[j].UID`. */
function byUid(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The ReplicaSet controller's deletion order among its live pods (getPodsToDelete ->
 * controller.ActivePodsWithRanks.Less, LogarithmicScaleDown on): unscheduled, then not
 * Ready (the phases of DELETE_ORDER), then the lower pod-deletion-cost, then the pod with
 * more active pods of the workload on its node, then the more recently Ready by
 * floor(log2(ns since Ready)) with the smaller UID first where that rank ties (pods Ready
 * seconds apart days ago), then more restarts, then the newer. A pod the model made
 * became Ready in the run: the most recent of all.
 */
function deletionOrder(model: Model, revision: 'new' | 'old'): ModelPod[] {
  const now = Date.parse(model.world.ctx.snapshot.capturedAt);
  const onNode = new Map<string, number>();
  for (const p of model.pods.filter((x) => x.phase !== 'terminating' && x.phase !== 'stuck')) {
    const node = p.pod.spec.nodeName;
    if (node) onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const readyRank = (p: ModelPod): number => {
    if (p.made) return 0;
    const since = p.pod.status?.conditions?.find(
      (c) => c.type === 'Ready' && c.status === 'True',
    )?.lastTransitionTime;
    const at = since ? Date.parse(since) : NaN;
    if (Number.isNaN(at) || Number.isNaN(now)) return 0;
    return Math.floor(Math.log2(Math.max(1, (now - at) * 1e6)));
  };
  const restarts = (p: ModelPod): number =>
    (p.pod.status?.containerStatuses ?? []).reduce((sum, c) => sum + (c.restartCount ?? 0), 0);
  const created = (p: ModelPod): number =>
    p.made ? Infinity : Date.parse(p.pod.metadata.creationTimestamp ?? '') || 0;
  const out: ModelPod[] = [];
  for (const phase of DELETE_ORDER) {
    const group = model.pods.inPhase(phase).filter((p) => p.revision === revision);
    group.sort(
      (a, b) =>
        deletionCost(a.pod) - deletionCost(b.pod) ||
        (onNode.get(b.pod.spec.nodeName ?? '') ?? 0) - (onNode.get(a.pod.spec.nodeName ?? '') ?? 0) ||
        (phase === 'ready'
          ? readyRank(a) - readyRank(b) || byUid(a.pod.metadata.uid ?? '', b.pod.metadata.uid ?? '')
          : 0) ||
        restarts(b) - restarts(a) ||
        created(b) - created(a),
    );
    out.push(...group);
  }
  return out;
}

export function stepReplicas(model: Model, shape: ReplicaShape): void {
  const { replicas } = shape;
  if (shape.recreate) {
    shape.oldSpec = 0;
    if (!model.pods.some((p) => p.revision === 'old')) shape.newSpec = replicas;
  } else {
    const all = shape.newSpec + shape.oldSpec;
    const maxTotal = replicas + shape.maxSurge;
    if (shape.newSpec > replicas) shape.newSpec = replicas;
    else if (shape.newSpec < replicas && all < maxTotal)
      shape.newSpec += Math.min(maxTotal - all, replicas - shape.newSpec);
    scaleDownOld(model, shape);
  }
  reconcileReplicaSet(model, 'new', shape.newSpec);
  reconcileReplicaSet(model, 'old', shape.oldSpec);
}

function scaleDownOld(model: Model, shape: ReplicaShape): void {
  const all = shape.newSpec + shape.oldSpec;
  const minAvailable = shape.replicas - shape.maxUnavailable;
  const newAvailable = Math.min(countReady(model.pods, 'new'), shape.newSpec);
  const maxScaledDown = all - minAvailable - (shape.newSpec - newAvailable);
  if (maxScaledDown <= 0 || shape.oldSpec === 0) return;
  const oldAvailable = Math.min(countReady(model.pods, 'old'), shape.oldSpec);
  // cleanupUnhealthyReplicas: old pods that are not available go first.
  shape.oldSpec -= Math.min(maxScaledDown, shape.oldSpec - oldAvailable);
  const available = Math.min(oldAvailable, shape.oldSpec) + newAvailable;
  if (available > minAvailable) shape.oldSpec -= Math.min(shape.oldSpec, available - minAvailable);
}

export function stepPerNode(model: Model, shape: PerNodeShape): void {
  const wanted = new Set(shape.nodes.map((n) => n.metadata.name ?? ''));
  const onNode = (name: string, revision: 'new' | 'old'): ModelPod | undefined =>
    live(model.pods, revision).find((p) => (p.target ?? p.pod.spec.nodeName) === name);
  // The manage loop: pods on nodes that should not run one go.
  for (const pod of [...live(model.pods, 'new'), ...live(model.pods, 'old')]) {
    if (!wanted.has(pod.target ?? pod.pod.spec.nodeName ?? '')) deletePod(model, pod);
  }
  const available = (p: ModelPod | undefined): boolean => p?.phase === 'ready';
  if (shape.maxSurge === 0) {
    let unavailable = 0;
    const candidates: ModelPod[] = [];
    const replace: ModelPod[] = [];
    for (const name of wanted) {
      const [fresh, old] = [onNode(name, 'new'), onNode(name, 'old')];
      if (!fresh && !old) createPod(model, 'new', name);
      // podsShouldBeOnNode without surge keeps one pod per node, bound and oldest first: a
      // surge pod left from a strategy that surged goes (the fix that sets maxSurge 0).
      if (fresh && old) deletePod(model, fresh);
      if ((!fresh && !old) || (fresh && old)) unavailable += 1;
      else if (fresh && !available(fresh)) unavailable += 1;
      else if (old && !available(old)) replace.push(old);
      else if (old) candidates.push(old);
    }
    const room = Math.max(0, Math.min(shape.maxUnavailable - unavailable, candidates.length));
    for (const pod of [...replace, ...candidates.slice(0, room)]) deletePod(model, pod);
    return;
  }
  let surging = 0;
  const candidates: string[] = [];
  const allowed: string[] = [];
  for (const name of wanted) {
    const [fresh, old] = [onNode(name, 'new'), onNode(name, 'old')];
    if (!fresh && !old) createPod(model, 'new', name);
    else if (!old) continue;
    else if (!fresh) (available(old) ? candidates : allowed).push(name);
    else if (!available(fresh)) surging += 1;
    else deletePod(model, old);
  }
  const room = Math.max(0, Math.min(shape.maxSurge - surging, candidates.length));
  for (const name of [...allowed, ...candidates.slice(0, room)]) createPod(model, 'new', name);
}
