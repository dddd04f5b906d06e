/**
 * The re-proof between two steps of a stepped scale-old-replicaset, from a fresh
 * snapshot: the surge deadlock still stands (surge-proof.ts), and the old pod the
 * ReplicaSet controller will release next (deletion-order.ts: a Pending or not-Ready
 * pod goes before any marked one) is one that frees what the Pending new pod needs.
 * Pure: the walk (src/kube/write/stepped-walk.ts) is handed a `ReproveStep` that
 * collects the snapshot and calls this (src/apply/apply-plan.ts), so kube only reads
 * and writes.
 */
import { AnalysisContext } from '../diagnosis/analysis-context.js';
import type { Pod } from '../diagnosis/k8s.js';
import { chooseRelease } from '../diagnosis/rollout/deletion-order.js';
import { currentDeadlockProof } from '../diagnosis/rollout/surge-proof.js';
import { podsOfReplicaSet } from '../diagnosis/workloads/deployment/replica-sets.js';
import { isDeploymentObjects, type WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import type { OldReplicaSetTarget, ReplicaSetScalePlan } from './plan.js';

/**
 * The pod a step releases, with the old ReplicaSet's pods as seen and the nodes where
 * the new pod fits once it goes; or why no step may be taken now.
 */
export type StepChoice =
  | { ok: true; pod: Pod; pods: Pod[]; nodes: string[] }
  | { ok: false; stop: 'nothing-blocked' | 'other-pod-first'; reason: string };

/** Reads the cluster afresh and chooses the next step (src/apply/apply-plan.ts makes one). */
export type ReproveStep = (plan: ReplicaSetScalePlan) => Promise<StepChoice>;

/** @example chooseStep(await collectSnapshot(client, plan.target), plan.replicaSet) */
export function chooseStep(snapshot: WorkloadSnapshot, target: OldReplicaSetTarget): StepChoice {
  const proof = currentDeadlockProof(new AnalysisContext(snapshot));
  if (!proof)
    return { ok: false, stop: 'nothing-blocked', reason: 'no Pending new pod is blocked by an old pod now' };
  const old = isDeploymentObjects(snapshot)
    ? snapshot.replicaSets.find((rs) => rs.metadata.uid === target.uid)
    : undefined;
  const pods = old ? podsOfReplicaSet(snapshot, old) : [];
  const choice = chooseRelease(pods, (p) => proof.nodes.includes(p.spec.nodeName ?? ''));
  if (!choice)
    return { ok: false, stop: 'nothing-blocked', reason: `ReplicaSet ${target.name} has no live pod` };
  if (!choice.ok) return { ok: false, stop: 'other-pod-first', reason: choice.reason };
  return { ok: true, pod: choice.pod, pods, nodes: proof.nodes };
}
