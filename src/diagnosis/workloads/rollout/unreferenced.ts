/**
 * A blue-green Rollout's ReplicaSets that nothing references any more: not the stable
 * one, not the one it rolls out to, not the active or preview selector's
 * (rollout/replicaset.go isReplicaSetReferenced). The controller scales each down by
 * itself, whatever the new pods do (scaleDownOldReplicaSetsForBlueGreen through
 * scaleDownDelayHelper): at its scale-down-deadline annotation, or scaleDownDelaySeconds
 * (30 by default) after it first finds it, at once past scaleDownRevisionLimit. So their
 * pods hold room only for a while, as a terminating pod does. Not while a pause for an
 * inconclusive analysis, or a post-promotion analysis with no scaleDownDelaySeconds,
 * holds every old ReplicaSet; not before the status names the ReplicaSets it keeps. A
 * canary's older ReplicaSets are in its own counts (basic-canary.ts) or wait on
 * availability, and are left to them.
 */
import type { Pod } from '../../k8s.js';
import type { RolloutObjects, WorkloadSnapshot } from '../../snapshot/types.js';
import { observed, rolloutRevisions } from './replica-sets.js';

export function unreferencedPods(objects: RolloutObjects & Pick<WorkloadSnapshot, 'pods'>): Pod[] {
  const { rollout } = objects;
  const blueGreen = rollout.spec.strategy?.blueGreen;
  const status = rollout.status;
  if (!blueGreen || !status?.currentPodHash || !status.stableRS || !observed(rollout)) return [];
  if (blueGreen.postPromotionAnalysis !== undefined && blueGreen.scaleDownDelaySeconds === undefined)
    return [];
  if (status.pauseConditions?.some((c) => c.reason === 'InconclusiveAnalysis')) return [];
  const held = new Set(
    [
      status.stableRS,
      status.currentPodHash,
      status.blueGreen?.activeSelector,
      status.blueGreen?.previewSelector,
    ].filter((hash): hash is string => Boolean(hash)),
  );
  return rolloutRevisions(objects)
    .old.filter((revision) => revision.hash !== '' && !held.has(revision.hash))
    .flatMap((revision) => revision.pods);
}
