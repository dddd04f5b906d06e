/**
 * The DaemonSet controller's decisions, written from k8s.io/kubernetes
 * pkg/controller/daemon: podsShouldBeOnNode (daemon_controller.go; failed and
 * succeeded pods go, excess pods go, and while surging two pods stay on a node only
 * while the new one is not yet available and the old one is Ready), rollingUpdate
 * (update.go; without surge old pods are deleted while fewer than maxUnavailable are
 * unavailable, with surge a new pod starts beside the old one on up to maxSurge nodes
 * and the old one goes once the new one is available), updatedDesiredNodeCounts
 * (both counts round up; both 0 behaves as maxUnavailable 1) and the status counts of
 * updateDaemonSetStatus. Pure functions over the pods grouped by target node.
 */
import type { Node, Pod } from '../../src/diagnosis/k8s.js';
import { isPodAvailable, isPodReady } from './pods.js';
import { isPodUpdated, type ShouldRun } from './daemonset-nodes.js';
import type { DaemonSet, DaemonSetStatus, IntOrString } from './workload-types.js';

export interface DaemonView {
  ds: DaemonSet;
  hash: string;
  templateGeneration: string | undefined;
  timeScale: number;
  now: number;
  shouldRun(node: Node): ShouldRun;
}

export interface NodeDecision {
  create: boolean;
  remove: Pod[];
  /** Events the controller records on the DaemonSet ([type, reason, message]). */
  events: [type: 'Normal' | 'Warning', reason: string, message: string][];
}

const live = (p: Pod): boolean => !p.metadata.deletionTimestamp;

/** podByCreationTimestampAndPhase: bound pods first, then oldest, then by name. */
export function byAge(a: Pod, b: Pod): number {
  const bound = Number(!a.spec.nodeName) - Number(!b.spec.nodeName);
  if (bound !== 0) return bound;
  const created = (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '');
  return created !== 0 ? created : (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

function available(view: DaemonView, pod: Pod): boolean {
  return isPodAvailable(pod, view.ds.spec.minReadySeconds ?? 0, view.timeScale, view.now);
}

function scaledUp(value: IntOrString | undefined, total: number): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  return m ? Math.ceil((Number(m[1]) * total) / 100) : Number(value) || 0;
}

/** SurgeCount and UnavailableCount (GetScaledValueFromIntOrPercent, rounding up). */
export function fenceposts(ds: DaemonSet, desired: number): { maxSurge: number; maxUnavailable: number } {
  const ru =
    ds.spec.updateStrategy?.type === 'RollingUpdate' ? ds.spec.updateStrategy.rollingUpdate : undefined;
  const maxSurge = scaledUp(ru?.maxSurge, desired);
  let maxUnavailable = scaledUp(ru?.maxUnavailable, desired);
  if (desired > 0 && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** podsShouldBeOnNode for one node. */
export function podsShouldBeOnNode(view: DaemonView, node: Node, pods: Pod[] | undefined): NodeDecision {
  const decision: NodeDecision = { create: false, remove: [], events: [] };
  const { shouldRun, shouldContinueRunning } = view.shouldRun(node);
  const nodeName = node.metadata.name ?? '';
  if (shouldRun && pods === undefined) return { ...decision, create: true };
  if (!shouldContinueRunning) {
    decision.remove = (pods ?? []).filter(live);
    return decision;
  }
  const running: Pod[] = [];
  for (const pod of (pods ?? []).filter(live)) {
    const where = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} on node ${nodeName}`;
    if (pod.status?.phase === 'Failed') {
      decision.events.push([
        'Warning',
        'FailedDaemonPod',
        `Found failed daemon pod ${where}, will try to kill it`,
      ]);
      decision.remove.push(pod);
    } else if (pod.status?.phase === 'Succeeded') {
      decision.events.push([
        'Normal',
        'SucceededDaemonPod',
        `Found succeeded daemon pod ${where}, will try to delete it`,
      ]);
      decision.remove.push(pod);
    } else running.push(pod);
  }
  running.sort(byAge);
  if (fenceposts(view.ds, 1).maxSurge === 0) {
    decision.remove.push(...running.slice(1));
    return decision;
  }
  if (running.length <= 1) return { ...decision, create: running.length === 0 && shouldRun };
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  for (const pod of running) {
    const isNew = pod.metadata.labels?.['controller-revision-hash'] === view.hash;
    if (isNew && !oldestNew) oldestNew = pod;
    else if (!isNew && !oldestOld) oldestOld = pod;
    else decision.remove.push(pod);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || available(view, oldestNew)))
    decision.remove.push(oldestOld);
  return decision;
}

/** findUpdatedPodsOnNode: at most one new and one old live pod, or not ok. */
function splitNode(view: DaemonView, pods: readonly Pod[]): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods.filter(live)) {
    if (isPodUpdated(pod, view.hash, view.templateGeneration)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}), ok: true };
}

export interface UpdatePlan {
  remove: Pod[];
  createOn: string[];
}

/** rollingUpdate without surge: delete old pods while fewer than maxUnavailable are unavailable. */
function withoutSurge(view: DaemonView, nodePods: Map<string, Pod[]>, maxUnavailable: number): UpdatePlan {
  let unavailable = 0;
  const replace: Pod[] = [];
  const candidates: Pod[] = [];
  for (const [, pods] of [...nodePods].sort(([a], [b]) => a.localeCompare(b))) {
    const { newPod, oldPod, ok } = splitNode(view, pods);
    if (!ok || (!newPod && !oldPod) || (newPod && oldPod)) unavailable += 1;
    else if (newPod) unavailable += available(view, newPod) ? 0 : 1;
    else if (oldPod && !available(view, oldPod)) {
      replace.push(oldPod);
      unavailable += 1;
    } else if (oldPod && unavailable < maxUnavailable) candidates.push(oldPod);
  }
  const room = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
  return { remove: [...replace, ...candidates.slice(0, room)], createOn: [] };
}

/** rollingUpdate with surge: new pods beside old ones on up to maxSurge nodes, old ones go once replaced. */
function withSurge(
  view: DaemonView,
  nodes: Map<string, Node>,
  nodePods: Map<string, Pod[]>,
  maxSurge: number,
  desired: number,
): UpdatePlan {
  const remove: Pod[] = [];
  const notWanted: Pod[] = [];
  const allowed: string[] = [];
  const candidates: string[] = [];
  let surging = 0;
  let availableCount = 0;
  for (const [nodeName, pods] of [...nodePods].sort(([a], [b]) => a.localeCompare(b))) {
    const { newPod, oldPod, ok } = splitNode(view, pods);
    if (!ok) {
      surging += 1;
      continue;
    }
    const counted = oldPod ?? newPod;
    if (counted && available(view, counted)) availableCount += 1;
    if (!oldPod) continue;
    const node = nodes.get(nodeName);
    const wanted = node ? view.shouldRun(node).shouldRun : false;
    if (newPod) {
      if (!available(view, newPod)) surging += 1;
      else remove.push(oldPod);
    } else if (!available(view, oldPod)) {
      if (!wanted) remove.push(oldPod);
      else allowed.push(nodeName);
    } else if (!wanted) notWanted.push(oldPod);
    else if (surging < maxSurge) candidates.push(nodeName);
  }
  // With maxSurge the owner expects full availability: a pod on a node the DaemonSet
  // no longer wants goes only while more pods are available than desired.
  const deletable = Math.min(Math.max(0, availableCount - desired), notWanted.length);
  remove.push(...notWanted.slice(0, deletable));
  const room = Math.min(Math.max(0, maxSurge - surging), candidates.length);
  return { remove, createOn: [...allowed, ...candidates.slice(0, room)] };
}

/** rollingUpdate: which old pods to delete and on which nodes to start new ones. */
export function rollingUpdatePlan(
  view: DaemonView,
  nodes: readonly Node[],
  nodePods: Map<string, Pod[]>,
): UpdatePlan {
  let desired = 0;
  const byName = new Map<string, Node>();
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    byName.set(name, node);
    if (!view.shouldRun(node).shouldRun) continue;
    desired += 1;
    if (!nodePods.has(name)) nodePods.set(name, []);
  }
  const { maxSurge, maxUnavailable } = fenceposts(view.ds, desired);
  if (maxSurge === 0) return withoutSurge(view, nodePods, maxUnavailable);
  return withSurge(view, byName, nodePods, maxSurge, desired);
}

/** updateDaemonSetStatus's counts (the oldest pod on each node stands for it). */
export function daemonSetCounts(
  view: DaemonView,
  nodes: readonly Node[],
  nodePods: Map<string, Pod[]>,
): DaemonSetStatus {
  const status = {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
  };
  for (const node of nodes) {
    const pods = [...(nodePods.get(node.metadata.name ?? '') ?? [])].sort(byAge);
    const pod = pods[0];
    if (!view.shouldRun(node).shouldRun) {
      if (pod) status.numberMisscheduled += 1;
      continue;
    }
    status.desiredNumberScheduled += 1;
    if (!pod) continue;
    status.currentNumberScheduled += 1;
    if (isPodReady(pod)) {
      status.numberReady += 1;
      if (available(view, pod)) status.numberAvailable += 1;
    }
    if (isPodUpdated(pod, view.hash, view.templateGeneration)) status.updatedNumberScheduled += 1;
  }
  const unavailable = status.desiredNumberScheduled - status.numberAvailable;
  // updatedNumberScheduled, numberAvailable and numberUnavailable are omitempty in apps/v1.
  const { updatedNumberScheduled, numberAvailable, ...always } = status;
  return {
    ...always,
    ...(updatedNumberScheduled ? { updatedNumberScheduled } : {}),
    ...(numberAvailable ? { numberAvailable } : {}),
    ...(unavailable ? { numberUnavailable: unavailable } : {}),
  };
}
