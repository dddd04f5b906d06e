/**
 * scale-old-replicaset: the surge deadlock's way out that no GitOps tool undoes: the
 * old ReplicaSet whose pods hold what the surge pod needs scaled to 0, all at once or
 * stepped one replica at a time (builders/scale-old-replicaset.ts; the walk is
 * src/kube/write/stepped-walk.ts). Its Undo is scale-back-old-replicaset. Pure.
 */
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { buildScaleOldReplicaSetPlans } from '../builders/scale-old-replicaset.js';
import type { ReplicaSetScalePlan } from '../plan.js';
import type { RemediationKindModule } from './kind.js';
import { checkScalePayload, SCALE_PATHS, scaleCliWords, scaleDrift } from './replicaset-scale.js';
import { scaleBackPlan } from './scale-back-old-replicaset.js';
import { restoredByPatch, rolloutByPatch } from './workload-patch.js';

export const scaleOldReplicaSet: RemediationKindModule<ReplicaSetScalePlan> & {
  kind: 'scale-old-replicaset';
} = {
  kind: 'scale-old-replicaset',
  // Leaves the spec alone, so no GitOps tool reverts it (drift.ts).
  answers: { RolloutSurgeDeadlock: buildScaleOldReplicaSetPlans },
  writes: 'replicaset-scale',
  clusterScoped: false,
  paths: () => SCALE_PATHS,
  checkPayload: (plan) => checkScalePayload(plan, 'down'),
  // Scaling the old ReplicaSet down stops old pods before the new ones are Ready.
  spendsAvailability: true,
  turnsOnReplicas: true,
  proof: {
    // The old ReplicaSets scaled as the plan leaves them: the others as they are, this one at its target.
    intervention: (ctx, plan) => {
      const others = workloadKind(ctx.snapshot)
        .revisions(ctx.snapshot)
        .old.filter((r) => r.name !== plan.replicaSet.name)
        .reduce((sum, r) => sum + (r.desired ?? r.pods.length), 0);
      return { oldTo: { replicas: others + plan.replicaSet.to, stepped: plan.replicaSet.stepped === true } };
    },
    takesDown: (plan) =>
      plan.replicaSet.stepped ? 1 : Math.max(0, plan.replicaSet.replicas - plan.replicaSet.to),
    // The pods that go are replaced by the new ReplicaSet's, of the current template.
    replacesWithTemplate: true,
    // The controller's scale path moves the new ReplicaSet while the workload is paused.
    bypassesPause: true,
    goal: 'rollout-completes',
  },
  changesPods: true,
  staleWhen: 'spec-changed',
  inverse: scaleBackPlan,
  // Scaling the old ReplicaSet down moves the rollout: the surge pod takes its place.
  watch: () => ({ kind: 'rollout' }),
  drift: scaleDrift,
  words: {
    change: (plan, target, room) => {
      const rs = plan.replicaSet;
      const tail = ` of ${target} to ${rs?.to ?? 0} replicas; the spec is not touched.`;
      const named = rs ? `Scale old ReplicaSet ${rs.name}` : '';
      const head = rs && named.length + tail.length <= room ? named : 'Scale the old ReplicaSet';
      return `${head}${tail}`;
    },
    restores: restoredByPatch,
    rollout: rolloutByPatch,
    ...scaleCliWords,
  },
};
