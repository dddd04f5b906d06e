/**
 * abort-rollout: an Argo Rollout's abort, on its status subresource
 * (builders/abort-rollout.ts). It writes only /status/abort, has no Undo (a retry
 * starts the same update again) and starts no rollout: the controller returns the pods
 * to the stable ReplicaSet, which is all there is to watch. Argo CD does not track a
 * Rollout's status, so no owner reverts it. Pure.
 */
import { WORKLOAD_NAMES } from '../../diagnosis/workload-ref.js';
import { PATCH_CONTENT_TYPES } from '../plan.js';
import { buildAbortRolloutPlans } from '../builders/abort-rollout.js';
import { workloadPatchKind } from './workload-patch.js';
import { currentTemplateCrash } from '../../diagnosis/forward/crash-model.js';
import { UNDO_WORDS } from './undo-words.js';

const base = workloadPatchKind({
  kind: 'abort-rollout',
  workloads: ['Rollout'],
  // The new pods go: only the stable ones serve.
  spendsAvailability: true,
  goal: 'rollout-completes',
  answers: {
    RolloutSurgeDeadlock: buildAbortRolloutPlans,
    ProgressDeadlineExceeded: buildAbortRolloutPlans,
    // A revision that crashes everywhere (forward/crashing-revision.ts leads with the rollback).
    CrashLoop: (ctx, finding, notOffered) =>
      currentTemplateCrash(ctx)?.everywhere ? buildAbortRolloutPlans(ctx, finding, notOffered) : [],
  },
  paths: () => ['/status/abort'],
  change: (_plan, target) =>
    `Abort the update of ${target}: the stable pods serve, the new ones go when the Rollout's abort settings say (the impact says when), and the Rollout stays Degraded until its template is reverted or the update retried.`,
});

export const abortRollout: typeof base = {
  ...base,
  writes: 'workload-status-patch',
  // Back to the stable pods is relief, not a fix: the update does not happen.
  reliefOnly: true,
  // The model does not follow a status write: checked by its counts. It takes no pod
  // down of itself (the new pods go, the stable ones serve) and replaces none from the template.
  proof: {
    takesDown: () => 0,
    replacesWithTemplate: false,
    bypassesPause: false,
    goal: 'rollout-completes',
  },
  inverse: () => null,
  // A Rollout's status is in no manifest: neither Argo CD nor Flux writes it back.
  drift: {
    looksAt: 'objects-outside-the-manifest',
    verdict: () => ({
      fields: ['status.abort'],
      why: "a Rollout's status is in no manifest: a GitOps owner syncs its spec and never writes status.abort back",
    }),
  },
  watch: () => ({
    kind: 'nothing',
    why: 'an abort ends the update: the stable pods serve and the controller scales the new ReplicaSet away, at once or after abortScaleDownDelaySeconds (kubectl argo rollouts get rollout shows it)',
  }),
  words: {
    ...base.words,
    restores: (_plan, lang) => UNDO_WORDS.aborted[lang](),
    rollout: (_plan, lang) => UNDO_WORDS.abortedRollout[lang](),
    write: (plan) => [
      `Patch (${PATCH_CONTENT_TYPES[plan.patch.type]}) to ${WORKLOAD_NAMES[plan.target.kind].resource}/${plan.target.name}/status in namespace ${plan.target.namespace}:`,
      JSON.stringify(plan.patch.body, null, 2),
      '(sent with the resourceVersion read just before it, so it fails rather than overwrite a concurrent change)',
    ],
    applied: (plan, generation) =>
      `Aborted ${WORKLOAD_NAMES[plan.target.kind].resource}/${plan.target.name} in namespace ${plan.target.namespace} (generation ${generation}):`,
  },
};
