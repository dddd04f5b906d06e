/**
 * The forward model's pods, indexed by phase and revision as they change, so a tick
 * costs what moves in it rather than every pod of a large workload: a 500-replica
 * rollout runs for a thousand ticks (issue 52.5: every plan run forward within the
 * diagnosis' time). Every phase change goes through `setPhase`; pods come and go
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

  constructor(pods: Iterable<ModelPod> = []) {
    for (const pod of pods) this.add(pod);
  }

  [Symbol.iterator](): Iterator<ModelPod> {
    return this.#all[Symbol.iterator]();
  }

  get size(): number {
    return this.#all.size;
  }

  add(pod: ModelPod): void {
    if (this.#all.has(pod)) return;
    this.#all.add(pod);
    this.#byPhase.get(pod.phase)?.add(pod);
    this.#counts[pod.revision][pod.phase] += 1;
  }

  delete(pod: ModelPod): void {
    if (!this.#all.delete(pod)) return;
    this.#byPhase.get(pod.phase)?.delete(pod);
    this.#counts[pod.revision][pod.phase] -= 1;
  }

  setPhase(pod: ModelPod, phase: PodPhase): void {
    if (pod.phase === phase) return;
    if (this.#all.has(pod)) {
      this.#byPhase.get(pod.phase)?.delete(pod);
      this.#counts[pod.revision][pod.phase] -= 1;
      this.#byPhase.get(phase)?.add(pod);
      this.#counts[pod.revision][phase] += 1;
    }
    pod.phase = phase;
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
