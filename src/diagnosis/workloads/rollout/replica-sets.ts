/**
 * An Argo Rollout's revisions are ReplicaSets it controls, labelled (and named
 * `<rollout>-<hash>`) with `rollouts-pod-template-hash` (argoproj/argo-rollouts
 * pkg/apis/rollouts/v1alpha1/types.go DefaultRolloutUniqueLabelKey). The controller
 * records the hash of the template it rolls out to as `status.currentPodHash` and the
 * stable one as `status.stableRS` (rollout/sync.go calculateBaseStatus, promoteStable);
 * before it has observed the template, the new ReplicaSet is the one whose template
 * equals it once pod defaults are applied, ignoring the hash label (utils/replicaset
 * FindNewReplicaSet; template-match.ts).
 */
import type { ArgoRollout } from '../../k8s-argo.js';
import type { ReplicaSet } from '../../k8s-workloads.js';
import type { RolloutObjects, WorkloadSnapshot } from '../../snapshot/types.js';
import type { Revision, Revisions } from '../../workload-kind.js';
import { podsOfReplicaSet } from '../deployment/replica-sets.js';
import { carriesTemplate } from './template-match.js';

export const HASH_LABEL = 'rollouts-pod-template-hash';
/** utils/annotations: the revision number on the Rollout and its ReplicaSets. */
export const REVISION = 'rollout.argoproj.io/revision';

const hashOf = (rs: ReplicaSet | undefined): string => rs?.metadata.labels?.[HASH_LABEL] ?? '';

/**
 * The controller has acted on the Rollout's latest spec (utils/rollout/rolloututil.go
 * isGenerationObserved: status.observedGeneration is a string; one that is not a number,
 * or none, counts as observed, as does one past metadata.generation).
 */
export function observed(rollout: ArgoRollout): boolean {
  const seen = rollout.status?.observedGeneration;
  if (seen === undefined || !/^[+-]?\d+$/.test(seen)) return true;
  return Number(seen) >= (rollout.metadata.generation ?? 0);
}

interface ClassifiedRollout {
  /** The ReplicaSet of the template the Rollout rolls out to. */
  current?: ReplicaSet;
  /** The ReplicaSet status.stableRS names (the one serving before the update). */
  stable?: ReplicaSet;
  /** Every ReplicaSet but the current one, newest first (the stable one among them). */
  old: ReplicaSet[];
}

export function classifyRollout(objects: RolloutObjects): ClassifiedRollout {
  const { rollout, replicaSets } = objects;
  const byHash = (hash: string | undefined): ReplicaSet | undefined =>
    hash ? replicaSets.find((rs) => hashOf(rs) === hash) : undefined;
  const template = rollout.spec.template;
  const strategy = rollout.spec.strategy;
  const antiAffinity = strategy?.canary?.antiAffinity ?? strategy?.blueGreen?.antiAffinity;
  const current =
    (observed(rollout) ? byHash(rollout.status?.currentPodHash) : undefined) ??
    (template
      ? [...replicaSets]
          .sort((a, b) =>
            (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
          )
          .find((rs) => carriesTemplate(rs, template, HASH_LABEL, antiAffinity))
      : undefined) ??
    byHash(rollout.status?.currentPodHash);
  const stable = byHash(rollout.status?.stableRS);
  return {
    ...(current ? { current } : {}),
    ...(stable ? { stable } : {}),
    old: replicaSets.filter((rs) => rs !== current),
  };
}

/** "ReplicaSet web-7c9d8 (revision 3, stable)". */
export function replicaSetLabel(rs: ReplicaSet, stable?: ReplicaSet): string {
  const number = rs.metadata.annotations?.[REVISION];
  const notes = [...(number ? [`revision ${number}`] : []), ...(rs === stable ? ['stable'] : [])];
  return `ReplicaSet ${rs.metadata.name ?? hashOf(rs)}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}

export function rolloutRevisions(snapshot: RolloutObjects & Pick<WorkloadSnapshot, 'pods'>): Revisions {
  const { current, stable, old } = classifyRollout(snapshot);
  const revision = (rs: ReplicaSet): Revision => ({
    name: rs.metadata.name ?? '',
    hash: hashOf(rs),
    label: replicaSetLabel(rs, stable),
    pods: podsOfReplicaSet(snapshot, rs, HASH_LABEL),
    ...(rs.status?.replicas !== undefined ? { counted: rs.status.replicas } : {}),
    ...(rs.spec?.replicas !== undefined ? { desired: rs.spec.replicas } : {}),
  });
  const olds = old.map(revision);
  const stableOld = stable && stable !== current ? olds[old.indexOf(stable)] : undefined;
  return {
    ...(current ? { current: revision(current) } : {}),
    old: olds,
    ...(stableOld ? { stable: stableOld } : {}),
  };
}
