/**
 * What scale-old-replicaset and its Undo, scale-back-old-replicaset, share: both
 * write an old ReplicaSet's scale subresource, never the workload, with a JSON patch
 * that tests the ReplicaSet's uid and replicas as seen and then sets the new count
 * (src/kube/write/replicaset-scaler.ts). Pure.
 */
import { jsonEqual } from '../json-pointer.js';
import { PATCH_CONTENT_TYPES, type ReplicaSetScalePlan, type UncheckedPlan } from '../plan.js';
import type { AllowlistVerdict, DriftRule, KindWords } from './kind.js';
import { REMEDIATION_SENTENCES } from '../sentences.js';

/**
 * The most replicas the worker may scale a ReplicaSet up to (the Undo of
 * scale-old-replicaset, scale-back-old-replicaset): the same bound as the admission
 * policy `rollout-doctor-worker-replicaset-scale` in deploy/admission-policy.yaml
 * (test/unit/admission-policy.test.ts keeps the two equal).
 */
export const MAX_SCALE_BACK_REPLICAS = 20;

/** The Scale's field these kinds write, whatever the workload kind. */
export const SCALE_PATHS = ['/spec/replicas'] as const;

/**
 * The Scale patch: it tests the ReplicaSet's uid and its replicas as seen at diagnosis,
 * then sets /spec/replicas, down only (scale-old-replicaset: taking replicas away is
 * the fix) or up only, at once, back to what it had and within the bound the admission
 * policy enforces too (scale-back-old-replicaset). Only the values the plan's
 * replicaSet names; neither carries an inverse, a DeviceTaintRule or pods.
 */
export function checkScalePayload(plan: UncheckedPlan, direction: 'down' | 'up'): AllowlistVerdict {
  if (plan.deviceTaint) return { ok: false, reason: `${plan.kind} writes no DeviceTaintRule` };
  if (!plan.patch) return { ok: false, reason: `${plan.kind} needs a patch` };
  if (plan.inverse) return { ok: false, reason: `${plan.kind} carries no inverse` };
  const verdict = checkScalePatch(plan, direction);
  if (!verdict.ok) return verdict;
  if (plan.pods?.length) return { ok: false, reason: `${plan.kind} deletes no pods` };
  return { ok: true };
}

function checkScalePatch(plan: UncheckedPlan, direction: 'down' | 'up'): AllowlistVerdict {
  const rs = plan.replicaSet;
  if (!rs) return { ok: false, reason: `${plan.kind} names no ReplicaSet` };
  if (!Number.isInteger(rs.to) || !Number.isInteger(rs.replicas) || rs.to < 0 || rs.replicas < 0) {
    return { ok: false, reason: `${plan.kind}: replicas must be whole numbers (${rs.replicas} to ${rs.to})` };
  }
  if (direction === 'up') {
    if (rs.to <= rs.replicas || rs.to > MAX_SCALE_BACK_REPLICAS || rs.stepped !== undefined) {
      return {
        ok: false,
        reason: `scale-back-old-replicaset only scales up, at once, to at most ${MAX_SCALE_BACK_REPLICAS} (${rs.replicas} to ${rs.to})`,
      };
    }
  } else if (rs.to >= rs.replicas) {
    return { ok: false, reason: `scale-old-replicaset only scales down (${rs.replicas} to ${rs.to})` };
  }
  if (plan.patch?.type !== 'json' || !Array.isArray(plan.patch.body)) {
    return { ok: false, reason: `${plan.kind} sends a JSON patch` };
  }
  const ops = plan.patch.body as unknown[];
  // Stepped: the sealed patch is the first step (down by one) of a walk to 0.
  if (rs.stepped === true && rs.to !== 0) return { ok: false, reason: 'a stepped scale goes to 0' };
  const first = rs.stepped === true ? rs.replicas - 1 : rs.to;
  const expected = [
    { op: 'test', path: '/metadata/uid', value: rs.uid },
    { op: 'test', path: '/spec/replicas', value: rs.replicas },
    { op: 'replace', path: '/spec/replicas', value: first },
  ];
  if (ops.length !== expected.length || !ops.every((op, i) => jsonEqual(op, expected[i]))) {
    return {
      ok: false,
      reason: `${plan.kind}'s patch must be exactly ${JSON.stringify(expected)}`,
    };
  }
  return { ok: true };
}

/**
 * ReplicaSets are made by the Deployment controller and are in no manifest: no owner
 * reverts a scale. `owner` undefined: none was recognised.
 */
export const scaleDrift: DriftRule<ReplicaSetScalePlan> = {
  looksAt: 'objects-outside-the-manifest',
  verdict: (plan, owner) => ({
    fields: [`replicaset/${plan.replicaSet.name} spec.replicas`],
    why:
      owner === undefined
        ? REMEDIATION_SENTENCES.rsScaleNoOwner.en({ undo: 'rollout undo' })
        : REMEDIATION_SENTENCES.rsScaleOwner.en({ owner, undo: 'rollout undo' }),
  }),
};

/** `cli apply`'s words for a scale: the Scale patch exactly, and the first line after it. */
export const scaleCliWords: Pick<KindWords<ReplicaSetScalePlan>, 'write' | 'applied'> = {
  write: (plan) => {
    const rs = plan.replicaSet;
    return [
      `Patch (${PATCH_CONTENT_TYPES[plan.patch.type]}) to replicasets/${rs.name}/scale in namespace ${plan.target.namespace} ` +
        `(the old ReplicaSet's scale subresource; the Deployment is not changed):`,
      JSON.stringify(plan.patch.body, null, 2),
      rs.stepped
        ? `(the first step: it then scales ${rs.name} down one replica at a time from ${rs.replicas} to ${rs.to}, ` +
          'waiting for each new pod to be Ready and re-checking before every step)'
        : `(it fails rather than scale ${rs.name} if its uid or replicas changed since the diagnosis)`,
    ];
  },
  // Scaling a ReplicaSet leaves the workload's generation as it was: not worth naming.
  applied: (plan) =>
    `Applied: scaled replicasets/${plan.replicaSet.name} in namespace ${plan.target.namespace}:`,
};
