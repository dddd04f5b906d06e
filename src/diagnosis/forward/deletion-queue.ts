/**
 * Which Ready pod of a revision the ReplicaSet controller deletes next, kept as a heap
 * (controllers.ts podsToDelete asks it once per scale-down): a 500-replica rollout
 * deletes one old pod a tick for a thousand ticks, and ranking every pod each time cost
 * most of a diagnosis. The order is ActivePodsWithRanks.Less for pods alike
 * in phase and Readiness: the lower deletion cost, then more pods of the workload on the
 * pod's node, then the Ready-time rank, the smaller UID, more restarts, the newer. The
 * node counts change as pods come and go: an entry carries the count it was ranked with
 * and is stale once its node's count moved (ModelPods tracks which nodes moved); stale
 * entries are ranked again, not trusted.
 */
import type { Pod } from '../k8s.js';
import { deletionCost } from '../rollout/deletion-order.js';
import type { ModelPod } from './model-pods.js';

/** The parts of ActivePodsWithRanks.Less that a pod keeps while the model runs. */
export interface DeletionRank {
  cost: number;
  /** floor(log2(ns since Ready)); 0 for a pod the model made (Ready in the run: the most recent). */
  readyRank: number;
  uid: string;
  restarts: number;
  created: number;
}

/**
 * A pod's rank as read at `now` (ms); `made`: a pod the model made, Ready in the run
 * (the most recent of all).
 */
export function deletionRank(pod: Pod, now: number, made = false): DeletionRank {
  const since = pod.status?.conditions?.find(
    (c) => c.type === 'Ready' && c.status === 'True',
  )?.lastTransitionTime;
  const at = since ? Date.parse(since) : NaN;
  return {
    cost: deletionCost(pod),
    readyRank:
      made || Number.isNaN(at) || Number.isNaN(now)
        ? 0
        : Math.floor(Math.log2(Math.max(1, (now - at) * 1e6))),
    uid: pod.metadata.uid ?? '',
    restarts: (pod.status?.containerStatuses ?? []).reduce((sum, c) => sum + (c.restartCount ?? 0), 0),
    created: made ? Infinity : Date.parse(pod.metadata.creationTimestamp ?? '') || 0,
  };
}

/**
 * Ready, bound pods of one ReplicaSet in the order its controller deletes them as it is
 * scaled down one by one (the first goes first), as read at `now`. `related`: the pods of
 * the workload (every revision) the co-location rank counts per node; a deleted pod no
 * longer counts.
 */
export function readyDeletionOrder(pods: readonly Pod[], related: readonly Pod[], now: number): Pod[] {
  const onNode = new Map<string, number>();
  for (const p of related) onNode.set(p.spec.nodeName ?? '', (onNode.get(p.spec.nodeName ?? '') ?? 0) + 1);
  const ranks = new Map(pods.map((p) => [p, deletionRank(p, now)]));
  const left = new Set(pods);
  const order: Pod[] = [];
  const on = (q: Pod): number => onNode.get(q.spec.nodeName ?? '') ?? 0;
  const goesBefore = (p: Pod, q: Pod): boolean => {
    const [a, b] = [ranks.get(p), ranks.get(q)];
    return a !== undefined && b !== undefined && deletedBefore(a, on(p), b, on(q), true);
  };
  while (left.size > 0) {
    let best: Pod | undefined;
    for (const p of left) if (!best || goesBefore(p, best)) best = p;
    if (!best) break;
    left.delete(best);
    order.push(best);
    const node = best.spec.nodeName ?? '';
    onNode.set(node, (onNode.get(node) ?? 1) - 1);
  }
  return order;
}

interface Entry {
  pod: ModelPod;
  rank: DeletionRank;
  on: number;
}

/** Go's string order (bytes), as `s.Pods[i].UID < s.Pods[j].UID`. */
function byUid(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** a (with `na` pods of the workload on its node) is deleted before b (`ready`: both Ready). */
export function deletedBefore(
  a: DeletionRank,
  na: number,
  b: DeletionRank,
  nb: number,
  ready: boolean,
): boolean {
  if (a.cost !== b.cost) return a.cost < b.cost;
  if (na !== nb) return na > nb;
  if (ready && a.readyRank !== b.readyRank) return a.readyRank < b.readyRank;
  if (ready && a.uid !== b.uid) return byUid(a.uid, b.uid) < 0;
  if (a.restarts !== b.restarts) return a.restarts > b.restarts;
  return a.created > b.created;
}

const first = (a: Entry, b: Entry): boolean => deletedBefore(a.rank, a.on, b.rank, b.on, true);

export class DeletionQueue {
  readonly #heap: Entry[] = [];
  /** The Ready pods known to the queue, by node (to rank them again when their node's count moves). */
  readonly #byNode = new Map<string, Set<ModelPod>>();
  readonly #known = new Set<ModelPod>();

  constructor(
    private readonly rankOf: (pod: ModelPod) => DeletionRank,
    private readonly onNode: (node: string | undefined) => number,
  ) {}

  /**
   * Every Ready pod of the revision at once: entries laid out and made a heap bottom-up
   * (Floyd), linear in the pods rather than a push each.
   */
  offerAll(pods: readonly ModelPod[]): void {
    for (const pod of pods) this.#know(pod);
    for (const pod of pods)
      this.#heap.push({ pod, rank: this.rankOf(pod), on: this.onNode(pod.pod.spec.nodeName) });
    for (let i = (this.#heap.length >> 1) - 1; i >= 0; i -= 1) this.#siftDown(i);
  }

  #know(pod: ModelPod): void {
    if (this.#known.has(pod)) return;
    this.#known.add(pod);
    const node = pod.pod.spec.nodeName ?? '';
    let list = this.#byNode.get(node);
    if (!list) this.#byNode.set(node, (list = new Set()));
    list.add(pod);
  }

  /** A Ready pod of the revision, ranked now (again, where it is known). */
  offer(pod: ModelPod): void {
    this.#know(pod);
    this.#push({ pod, rank: this.rankOf(pod), on: this.onNode(pod.pod.spec.nodeName) });
  }

  /** The count of pods on `node` moved: its pods are ranked again. */
  nodeMoved(node: string): void {
    for (const pod of this.#byNode.get(node) ?? []) this.offer(pod);
  }

  /** The first pod to delete that `stillHere` accepts (Ready, of the revision, not taken), or undefined. */
  next(stillHere: (pod: ModelPod) => boolean): ModelPod | undefined {
    while (this.#heap.length > 0) {
      const top = this.#pop();
      if (!top || !stillHere(top.pod)) continue;
      if (top.on !== this.onNode(top.pod.pod.spec.nodeName)) continue; // a fresher entry is queued
      return top.pod;
    }
    return undefined;
  }

  #push(entry: Entry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const up = heap[parent];
      if (!up || !first(entry, up)) break;
      heap[i] = up;
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): Entry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || !last) return top;
    heap[0] = last;
    this.#siftDown(0);
    return top;
  }

  /** Moves the entry at `i` down until neither child comes before it. */
  #siftDown(i: number): void {
    const heap = this.#heap;
    const entry = heap[i];
    if (!entry) return;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = entry;
      let at = -1;
      const left = heap[l];
      const right = heap[r];
      if (left && first(left, best)) {
        best = left;
        at = l;
      }
      if (right && first(right, best)) {
        best = right;
        at = r;
      }
      if (at < 0) break;
      heap[i] = best;
      i = at;
    }
    heap[i] = entry;
  }
}
