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
import type { Model, ModelPod, PerNodeShape, ReplicaShape } from './model.js';
import { DeletionQueue, deletedBefore, deletionRank, type DeletionRank } from './deletion-queue.js';
import { countReady, live } from './model.js';
import type { PodPhase } from './pod-phase.js';
import { ordinalPod } from './ordinal-claims.js';
import { pinnedTo } from './daemon-budget.js';

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
  const ordinal =
    revision === 'new' && model.ordinals ? ordinalPod(model.pods, model.ordinals, named) : named;
  const pod = target ? pinnedTo(ordinal, target) : ordinal;
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

/** The ReplicaSet controller's deletion order: unscheduled, then not Ready, then Ready. */
const DELETE_ORDER: readonly PodPhase[] = ['pending', 'failing', 'starting', 'ready'];

function reconcileReplicaSet(model: Model, revision: 'new' | 'old', spec: number): void {
  const count = model.pods.liveCount(revision);
  if (count < spec) {
    for (let i = count; i < spec; i += 1) if (!createPod(model, revision)) break;
  } else if (count > spec) {
    for (const pod of podsToDelete(model, revision, count - spec)) deletePod(model, pod);
  }
}

function fixedRank(model: Model, p: ModelPod): DeletionRank {
  let rank = model.deletionRanks.get(p);
  if (rank) return rank;
  rank = deletionRank(p.pod, Date.parse(model.world.ctx.snapshot.capturedAt), p.made === true);
  model.deletionRanks.set(p, rank);
  return rank;
}

/**
 * The first `n` pods of the revision the ReplicaSet controller deletes (getPodsToDelete ->
 * controller.ActivePodsWithRanks.Less, LogarithmicScaleDown on): unscheduled, then not
 * Ready (the phases of DELETE_ORDER), then the lower pod-deletion-cost, then the pod with
 * more active pods of the workload on its node, then the more recently Ready by
 * floor(log2(ns since Ready)) with the smaller UID first where that rank ties (pods Ready
 * seconds apart days ago), then more restarts, then the newer. A pod the model made
 * became Ready in the run: the most recent of all. Picked, not sorted: a tick of a
 * 500-replica rollout deletes one or two pods.
 */
function podsToDelete(model: Model, revision: 'new' | 'old', n: number): ModelPod[] {
  const here = (p: ModelPod): number => model.pods.onNode(p.pod.spec.nodeName);
  const out: ModelPod[] = [];
  const taken = new Set<ModelPod>();
  for (const phase of DELETE_ORDER) {
    if (phase === 'ready') {
      const queue = readyQueue(model, revision);
      const still = (p: ModelPod): boolean => p.phase === 'ready' && !taken.has(p) && model.pods.has(p);
      while (out.length < n) {
        const next = queue.next(still);
        if (!next) break;
        taken.add(next);
        out.push(next);
      }
      continue;
    }
    // Not Ready: few pods, ranked each time.
    while (out.length < n) {
      let best: ModelPod | undefined;
      let bestRank: DeletionRank | undefined;
      let bestOn = 0;
      model.pods.eachIn(phase, revision, (p) => {
        if (taken.has(p)) return;
        const rank = fixedRank(model, p);
        const on = here(p);
        if (!bestRank || deletedBefore(rank, on, bestRank, bestOn, false)) {
          best = p;
          bestRank = rank;
          bestOn = on;
        }
      });
      if (!best) break;
      taken.add(best);
      out.push(best);
    }
  }
  return out;
}

/** The revision's Ready pods in deletion order, brought up to date with what moved since last asked. */
function readyQueue(model: Model, revision: 'new' | 'old'): DeletionQueue {
  let state = model.deletionQueues[revision];
  if (!state) {
    state = {
      queue: new DeletionQueue(
        (p) => fixedRank(model, p),
        (node) => model.pods.onNode(node),
      ),
      moved: model.pods.movedNodes.length,
      ready: 0,
    };
    model.deletionQueues[revision] = state;
    const ready: ModelPod[] = [];
    model.pods.eachIn('ready', revision, (p) => ready.push(p));
    state.queue.offerAll(ready);
    state.ready = model.pods.becameReady.length;
  }
  const { movedNodes, becameReady } = model.pods;
  for (; state.ready < becameReady.length; state.ready += 1) {
    const pod = becameReady[state.ready];
    if (pod?.revision === revision) state.queue.offer(pod);
  }
  const moved = new Set(movedNodes.slice(state.moved));
  state.moved = movedNodes.length;
  for (const node of moved) state.queue.nodeMoved(node);
  return state.queue;
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
  const keep = new Set(shape.keep.map((n) => n.metadata.name ?? ''));
  const nodeOf = (p: ModelPod): string => p.target ?? p.pod.spec.nodeName ?? '';
  const onNode = (name: string, revision: 'new' | 'old'): ModelPod | undefined =>
    live(model.pods, revision).find((p) => nodeOf(p) === name);
  // The manage loop: pods on nodes that should not keep one go (the wanted nodes are kept).
  for (const pod of [...live(model.pods, 'new'), ...live(model.pods, 'old')]) {
    if (!keep.has(nodeOf(pod))) deletePod(model, pod);
  }
  const available = (p: ModelPod | undefined): boolean => p?.phase === 'ready';
  if (shape.maxSurge === 0) {
    // getNodesToDaemonPods keeps a node while a pod of ours is on it, wanted or not, and
    // rollingUpdate counts it against maxUnavailable where that pod is terminating
    // (findUpdatedPodsOnNode skips it: one stuck on an unreachable node holds the budget
    // for good) or is a new one not available; nothing is made on such a node.
    const away = (p: ModelPod): boolean =>
      p.phase === 'terminating' || p.phase === 'stuck' || (p.revision === 'new' && !available(p));
    let unavailable = new Set(
      model.pods
        .filter(away)
        .map(nodeOf)
        .filter((node) => node !== '' && !wanted.has(node)),
    ).size;
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
    else if (available(fresh)) deletePod(model, old);
    else {
      surging += 1;
      // podsShouldBeOnNode with surge: beside a new pod, an old pod that is not Ready goes
      // ("no longer ready and will be replaced with newer pod"), freeing what it held.
      if (!available(old)) deletePod(model, old);
    }
  }
  const room = Math.max(0, Math.min(shape.maxSurge - surging, candidates.length));
  for (const name of [...allowed, ...candidates.slice(0, room)]) createPod(model, 'new', name);
}
