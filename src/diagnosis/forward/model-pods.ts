/**
 * The forward model's pods, indexed by phase and revision as they change, so a tick
 * costs what moves in it rather than every pod of a large workload: a 500-replica
 * rollout runs for a thousand ticks, and every plan is run forward within the
 * diagnosis' time. Every phase change goes through `setPhase`; pods come and go
 * through `add` and `delete`. Iteration keeps the order pods were added in.
 */
import type { Pod } from '../k8s.js';
import type { PodPhase } from './pod-phase.js';

export interface ModelPod {
  pod: Pod;
  revision: 'new' | 'old';
  phase: PodPhase;
  /** A DaemonSet pod's node (its controller pins it there). */
  target?: string;
  /** The scheduler nominated a node and preempts there. */
  nominated?: string;
  /** Made by the model's controller (not in the snapshot): it runs the template as the crash picture says. */
  made?: true;
}

type Revision = ModelPod['revision'];

const PHASES: readonly PodPhase[] = ['pending', 'starting', 'ready', 'failing', 'terminating', 'stuck'];

export class ModelPods implements Iterable<ModelPod> {
  readonly #all = new Set<ModelPod>();
  readonly #byPhase = new Map<PodPhase, Set<ModelPod>>(PHASES.map((p) => [p, new Set()]));
  readonly #counts: Record<Revision, Record<PodPhase, number>> = { new: zero(), old: zero() };
  /** Pods not on their way out, per node they are bound to (ActivePodsWithRanks' pods on the same node). */
  readonly #onNode = new Map<string, number>();

  /** Every node whose count moved, and every pod that became Ready, in order (read from a cursor). */
  readonly movedNodes: string[] = [];
  readonly becameReady: ModelPod[] = [];

  #countOnNode(pod: ModelPod, sign: 1 | -1): void {
    const node = pod.pod.spec.nodeName;
    if (!node || pod.phase === 'terminating' || pod.phase === 'stuck') return;
    this.#onNode.set(node, (this.#onNode.get(node) ?? 0) + sign);
    this.movedNodes.push(node);
  }

  /** How many pods of the workload, not on their way out, run on `node`. */
  onNode(node: string | undefined): number {
    return node ? (this.#onNode.get(node) ?? 0) : 0;
  }

  /** The pod is bound: `bound` is the pod as bound to its node. */
  bind(pod: ModelPod, bound: Pod): void {
    const known = this.#all.has(pod);
    if (known) this.#countOnNode(pod, -1);
    pod.pod = bound;
    if (known) this.#countOnNode(pod, 1);
  }

  constructor(pods: Iterable<ModelPod> = []) {
    for (const pod of pods) this.add(pod);
  }

  [Symbol.iterator](): Iterator<ModelPod> {
    return this.#all[Symbol.iterator]();
  }

  has(pod: ModelPod): boolean {
    return this.#all.has(pod);
  }

  get size(): number {
    return this.#all.size;
  }

  add(pod: ModelPod): void {
    if (this.#all.has(pod)) return;
    this.#all.add(pod);
    this.#byPhase.get(pod.phase)?.add(pod);
    this.#counts[pod.revision][pod.phase] += 1;
    this.#countOnNode(pod, 1);
    if (pod.phase === 'ready') this.becameReady.push(pod);
  }

  delete(pod: ModelPod): void {
    if (!this.#all.delete(pod)) return;
    this.#countOnNode(pod, -1);
    this.#byPhase.get(pod.phase)?.delete(pod);
    this.#counts[pod.revision][pod.phase] -= 1;
  }

  setPhase(pod: ModelPod, phase: PodPhase): void {
    if (pod.phase === phase) return;
    const known = this.#all.has(pod);
    if (known) {
      this.#countOnNode(pod, -1);
      this.#byPhase.get(pod.phase)?.delete(pod);
      this.#counts[pod.revision][pod.phase] -= 1;
      this.#byPhase.get(phase)?.add(pod);
      this.#counts[pod.revision][phase] += 1;
    }
    pod.phase = phase;
    if (known) this.#countOnNode(pod, 1);
    if (known && phase === 'ready') this.becameReady.push(pod);
  }

  /** The pods of `revision` in `phase`, walked in place: `visit` must not change any pod's phase. */
  eachIn(phase: PodPhase, revision: Revision, visit: (pod: ModelPod) => void): void {
    if (this.#counts[revision][phase] === 0) return;
    for (const pod of this.#byPhase.get(phase) ?? []) if (pod.revision === revision) visit(pod);
  }

  /** The pods in `phase`, a copy (safe to change them while walking it). */
  inPhase(phase: PodPhase): ModelPod[] {
    return [...(this.#byPhase.get(phase) ?? [])];
  }

  count(revision: Revision, phase: PodPhase): number {
    return this.#counts[revision][phase];
  }

  /** Pods of the revision that are not on their way out (terminating or stuck). */
  liveCount(revision: Revision): number {
    const c = this.#counts[revision];
    return c.pending + c.starting + c.ready + c.failing;
  }

  /** Pods of the revision that are not on their way out, in the order they were added. */
  live(revision: Revision): ModelPod[] {
    const out: ModelPod[] = [];
    for (const pod of this.#all)
      if (pod.revision === revision && pod.phase !== 'terminating' && pod.phase !== 'stuck') out.push(pod);
    return out;
  }

  /** Serving: available to their controller, whatever their revision. */
  serving(): number {
    return this.#counts.new.ready + this.#counts.old.ready;
  }

  filter(keep: (pod: ModelPod) => boolean): ModelPod[] {
    return [...this.#all].filter(keep);
  }

  some(test: (pod: ModelPod) => boolean): boolean {
    for (const pod of this.#all) if (test(pod)) return true;
    return false;
  }

  find(test: (pod: ModelPod) => boolean): ModelPod | undefined {
    for (const pod of this.#all) if (test(pod)) return pod;
    return undefined;
  }
}

function zero(): Record<PodPhase, number> {
  return { pending: 0, starting: 0, ready: 0, failing: 0, terminating: 0, stuck: 0 };
}
