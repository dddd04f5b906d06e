/**
 * delete-pods: delete the pods crash-looping on the bad node(s) so their ReplicaSet
 * replaces them (builders/delete-pods.ts). Relief, not a fix: the replacements may
 * land on the bad node again (exclude-node is the fix), so it is never ordered ahead
 * of one. Where a StatefulSet's exclusion reaches its crash-looping pods only once they
 * are deleted (OrderedReady waits for them, OnDelete replaces nothing: exclusion-waits.ts)
 * it is offered for after exclude-node, bound to the affinity that writes. No patch, no
 * Undo; what is watched is the replacements becoming Ready. Pure.
 */
import { buildDeletePodsPlans, buildForcedRollbackPlans } from '../builders/delete-pods.js';
import { isReady } from '../../diagnosis/base/pods.js';
import { podPhases } from '../../diagnosis/forward/pod-phase.js';
import type { DeletePodsPlan } from '../plan.js';
import type { RemediationKindModule } from './kind.js';
import { names, podLines } from './words.js';
import { restoredByPatch, rolloutByPatch } from './workload-patch.js';
import { REMEDIATION_SENTENCES } from '../sentences.js';

/** Pods are in no manifest: no owner reverts deleting them. */
export const PODS_ONLY = REMEDIATION_SENTENCES.podsOnly.en();

export const deletePods: RemediationKindModule<DeletePodsPlan> & { kind: 'delete-pods' } = {
  kind: 'delete-pods',
  answers: {
    CrashLoopOnNode: (ctx, finding, notOffered) => buildDeletePodsPlans(ctx, finding, notOffered),
    // A StatefulSet's forced rollback: the one pod its ordered rollout waits for.
    RolloutStuck: buildForcedRollbackPlans,
  },
  workloads: ['Deployment', 'StatefulSet'],
  writes: 'pod-deletion',
  clusterScoped: false,
  paths: () => [],
  checkPayload: (plan) => {
    if (plan.deviceTaint) return { ok: false, reason: 'delete-pods writes no DeviceTaintRule' };
    if (plan.patch !== null) return { ok: false, reason: 'delete-pods carries no patch' };
    if (!plan.pods?.length) return { ok: false, reason: 'delete-pods names no pods' };
    return { ok: true };
  },
  // The deleted pods stop serving until their replacements are Ready.
  spendsAvailability: true,
  // Pods that fail on their own (forward/pod-phase.ts 'failing': crash-looping, a container
  // that cannot start) or that no node was found for ('pending': not bound) serve nothing. A StatefulSet's forced rollback (a pod stuck on the
  // reverted revision, which OrderedReady never replaces) gets the controller going again
  // even where the rollout cannot finish for another reason (a later ordinal with no
  // room): the pod comes back at the good revision.
  takesNoServingPod: (ctx, plan) =>
    (plan.pods?.length ?? 0) > 0 &&
    plan.pods.every((named) => {
      const pod = ctx.snapshot.pods.find(
        (p) => (named.uid && p.metadata.uid === named.uid) || p.metadata.name === named.name,
      );
      const phase = pod === undefined ? undefined : podPhases(ctx).get(pod);
      return pod !== undefined && !isReady(pod) && (phase === 'failing' || phase === 'pending');
    }),
  proof: {
    intervention: (_ctx, plan) => ({ deleted: new Set(plan.pods.map((p) => p.uid || p.name)) }),
    takesDown: (plan, serving) => serving(plan.pods),
    // Their ReplicaSet replaces them, but the crash rule is for fixes: this is relief (reliefOnly).
    replacesWithTemplate: false,
    bypassesPause: false,
    goal: 'rollout-completes',
  },
  changesPods: true,
  staleWhen: 'spec-changed',
  reliefOnly: true,
  inverse: () => null,
  // The template is unchanged: the ReplicaSet creates replacements, and those becoming Ready is what is watched.
  watch: (plan) => ({ kind: 'replacements', pods: plan.pods ?? [] }),
  drift: { looksAt: 'objects-outside-the-manifest', verdict: () => ({ fields: [], why: PODS_ONLY }) },
  words: {
    change: (plan, target, room) => {
      const pods = plan.pods?.map((p) => p.name) ?? [];
      const head = `Delete ${pods.length} pod(s) of ${target}: `;
      return `${head}${names(pods, room - head.length - 1)}.`;
    },
    restores: restoredByPatch,
    rollout: rolloutByPatch,
    write: (plan) => [
      `Deletes pods in namespace ${plan.target.namespace} (each only if its uid is unchanged):`,
      ...podLines(plan.pods),
    ],
    applied: (plan) => `Applied: deleted pods in namespace ${plan.target.namespace}:`,
  },
};
