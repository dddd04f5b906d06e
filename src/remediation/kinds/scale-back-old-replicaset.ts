/**
 * scale-back-old-replicaset, only as the Undo of scale-old-replicaset: the old
 * ReplicaSet scaled back to the count it had at diagnosis, from the count the scale
 * left it at (a stepped walk that stopped early leaves it between the two). Sealed and
 * approval-gated like every plan; its JSON patch tests the ReplicaSet's uid and the
 * replicas the scale left, and the executor re-checks live that the Deployment still
 * controls it, that it still runs its old template and that the Deployment's new
 * ReplicaSet is still the one seen. It is refused once that new ReplicaSet is fully
 * available: the Deployment controller would scale an old ReplicaSet straight back
 * down then (upstream reconcileOldReplicaSets / cleanupUnhealthyReplicas), and the way
 * to get the old version back is a rollback of the Deployment. Pure.
 */
import { scalePatch } from '../builders/scale-old-replicaset.js';
import type { ReplicaSetScalePlan } from '../plan.js';
import type { Applied, RemediationKindModule } from './kind.js';
import { restoredByPatch } from './workload-patch.js';
import { checkScalePayload, SCALE_PATHS, scaleCliWords, scaleDrift } from './replicaset-scale.js';
import { UNDO_WORDS } from './undo-words.js';

/** The Undo of an applied scale-old-replicaset, or null when there is nothing to put back. */
export function scaleBackPlan(plan: ReplicaSetScalePlan, applied: Applied): ReplicaSetScalePlan | null {
  const rs = plan.replicaSet;
  if (!rs) return null;
  const change = applied.changes.find((c) => c.path === `replicasets/${rs.name}/spec/replicas`);
  const left = typeof change?.after === 'number' ? change.after : rs.to;
  const back = rs.replicas;
  if (left >= back) return null;
  const { stepped: _stepped, ...target } = rs;
  return {
    ...plan,
    id: `undo-${plan.id}`,
    kind: 'scale-back-old-replicaset',
    summary: `Undo: scale the old ReplicaSet ${rs.name} back from ${left} to ${back} replicas; the Deployment spec is not changed.`,
    impact: `starts no rollout and changes no Deployment field. ${back - left} pod(s) of the old template come back beside the new ones, where there is room for them, until the Deployment controller scales ${rs.name} down again as new pods become available.`,
    warnings: [
      `Refused once the new ReplicaSet ${rs.newReplicaSet.name} is fully available: the Deployment controller would scale ${rs.name} straight back down. To get the old version back, roll the Deployment back (kubectl rollout undo deployment/${plan.target.name} -n ${plan.target.namespace}, or revert the change in Git).`,
      `The old pods need what the new pods may now hold (the GPU, host port or volume of the deadlock): without room they stay Pending.`,
    ],
    patch: scalePatch({ uid: rs.uid, replicas: left, to: back }),
    replicaSet: { ...target, replicas: left, to: back },
    inverse: null,
    preconditions: { uid: plan.preconditions.uid, generation: applied.generation, fields: [] },
  };
}

export const scaleBackOldReplicaSet: RemediationKindModule<ReplicaSetScalePlan> & {
  kind: 'scale-back-old-replicaset';
} = {
  kind: 'scale-back-old-replicaset',
  answers: {},
  undoes: 'scale-old-replicaset',
  writes: 'replicaset-scale',
  clusterScoped: false,
  paths: () => SCALE_PATHS,
  checkPayload: (plan) => checkScalePayload(plan, 'up'),
  // Only an Undo, never offered: it adds old pods back.
  spendsAvailability: false,
  changesPods: false,
  staleWhen: 'spec-changed',
  inverse: () => null,
  watch: () => ({
    kind: 'nothing',
    why: "it starts no rollout: the old ReplicaSet's pods start beside the new ones, and the Deployment controller scales them down again as the new ones are available",
  }),
  drift: scaleDrift,
  words: {
    change: (plan, target, room) => {
      const rs = plan.replicaSet;
      const tail = ` of ${target} back to ${rs?.to ?? 0} replicas; the spec is not touched.`;
      const named = rs ? `Scale old ReplicaSet ${rs.name}` : '';
      return `${rs && named.length + tail.length <= room ? named : 'Scale the old ReplicaSet'}${tail}`;
    },
    restores: (plan, lang) => {
      const rs = plan.replicaSet;
      return rs
        ? UNDO_WORDS.scaledBack[lang]({ replicaSet: rs.name, to: rs.to })
        : restoredByPatch(plan, lang);
    },
    rollout: (_plan, lang) => UNDO_WORDS.scaledBackRollout[lang](),
    ...scaleCliWords,
  },
};
