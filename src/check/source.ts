/**
 * Where `check` and the admission webhook read the cluster from: the live API
 * (live-source.ts) or a dump (dump-source.ts). Either answers two questions per
 * workload: the live object, and a snapshot of a candidate object (the workload as it
 * will be) cut from what was read, with every pod that holds room on its nodes.
 */
import type { Pod } from '../diagnosis/k8s.js';
import type { WorkloadObject, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import type { NodeGrowth } from './growth/node-groups.js';
import { otherPods } from '../diagnosis/workloads/select-workload.js';

export interface LiveObject {
  /** Absent: no such object (the manifest creates it), or `unknown` says why it was not read. */
  object?: WorkloadObject;
  unknown?: string;
}

export interface CheckSource {
  live(kind: WorkloadKind, namespace: string, name: string): Promise<LiveObject>;
  /**
   * The candidate's snapshot. With `sample`, a source may cut the nodes down to a sample
   * (sampled: true) where more nodes can only add room (sampling.ts): a rollout that
   * finishes on the sample finishes on them all; any other verdict is asked again whole.
   */
  snapshot(
    kind: WorkloadKind,
    candidate: WorkloadObject,
    options?: { sample?: boolean },
  ): Promise<{ snapshot: WorkloadSnapshot; sampled: boolean }>;
  /**
   * The node groups the cluster can grow (growth/), read once and only when a rollout
   * fits no node there is. Absent: the source cannot say (none is assumed).
   */
  growth?(): Promise<NodeGrowth>;
}

/**
 * Every other pod on the snapshot's nodes, whatever its template asks for: the forward
 * model places the new pods among all of them (selectWorkload keeps them only when
 * the template asks for something scarce, which is all a diagnosis needs).
 */
export function withAllOccupants(snapshot: WorkloadSnapshot, neighbours: readonly Pod[]): WorkloadSnapshot {
  return { ...snapshot, otherPods: otherPods(neighbours, snapshot.pods, snapshot.nodes) };
}
