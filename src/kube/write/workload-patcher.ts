/**
 * The writer of the kinds that patch the workload (set-rolling-update, set-recreate,
 * rollout-restart, exclude-node): the approved patch, with the restart marker (if
 * any) set to the time of the apply (src/remediation/restart-time.ts, as `kubectl
 * rollout restart` does) and made conditional on the resourceVersion just verified, so
 * a concurrent writer produces a 409 that the executor re-checks instead of
 * overwriting. Server dry run first; field manager rollout-doctor.
 */
import type { WorkloadObject as Deployment } from '../../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES } from '../../diagnosis/workload-ref.js';
import { PATCH_CONTENT_TYPES, type Patch, type WorkloadPatchPlan } from '../../remediation/plan.js';
import { fillApplyTime } from '../../remediation/restart-time.js';
import { fillExclusionTimes } from '../../remediation/exclusion-times.js';
import { failure, writeFailure, type ApplyResult, type DryRunResult } from './apply-result.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { diffTouched, isAlreadyApplied, valuesInPlace, withResourceVersion } from './patch-effect.js';

/** A write raced us: the resourceVersion we sent is no longer the stored one (409). Re-read and re-check. */
export const CONFLICT = 'conflict';

/** The live Deployment already has every value the plan sets (a retry finds its own write), or undefined. */
export function patchInPlace(
  plan: WorkloadPatchPlan,
  live: Deployment,
): Extract<ApplyResult, { status: 'already-applied' }> | undefined {
  if (!isAlreadyApplied(live, plan.patch, plan.preconditions.fields)) return undefined;
  return {
    status: 'already-applied',
    reason: 'the live Deployment already has every value this plan sets',
    generation: live.metadata.generation ?? 0,
    changes: valuesInPlace(live, plan.patch),
  };
}

/** The approved patch as sealed, its restart marker set to `now`, guarded by the verified resourceVersion. */
function patchToSend(plan: WorkloadPatchPlan, live: Deployment, now: Date): Patch {
  const timed = fillExclusionTimes(fillApplyTime(plan.patch, now), now);
  return withResourceVersion(timed, live.metadata.resourceVersion ?? '');
}

/** The subresource a kind writes instead of the object (an Argo Rollout's abort: "status"). */
type Subresource = 'status' | undefined;

function sendPatch(
  client: KubeClient,
  plan: WorkloadPatchPlan,
  patch: Patch,
  dryRun: boolean,
  subresource: Subresource,
): Promise<Deployment> {
  return client.call<Deployment>({
    verb: 'patch',
    resource: WORKLOAD_NAMES[plan.target.kind].resource,
    namespace: plan.target.namespace,
    name: plan.target.name,
    ...(subresource ? { subresource } : {}),
    body: patch.body,
    contentType: PATCH_CONTENT_TYPES[patch.type],
    query: { fieldManager: 'rollout-doctor', ...(dryRun ? { dryRun: 'All' } : {}) },
  });
}

/** What the server says the patch would change (`dryRun=All`), without changing anything. */
export async function dryRunPatch(
  client: KubeClient,
  plan: WorkloadPatchPlan,
  live: Deployment,
  now: Date,
  subresource?: Subresource,
): Promise<DryRunResult> {
  try {
    const result = await sendPatch(client, plan, patchToSend(plan, live, now), true, subresource);
    return { ok: true, changes: diffTouched(live, result, plan.patch) };
  } catch (error) {
    const conflict = error instanceof KubeApiError && error.status === 409;
    return { ok: false, reason: failure(error).reason, ...(conflict ? { conflict: true as const } : {}) };
  }
}

/** Dry run, then the patch; CONFLICT when a concurrent write got in between (409). */
export async function applyPatch(
  client: KubeClient,
  plan: WorkloadPatchPlan,
  live: Deployment,
  now: Date,
  progress: (step: string) => void,
  subresource?: Subresource,
): Promise<ApplyResult | typeof CONFLICT> {
  const patch = patchToSend(plan, live, now);
  let writing = false;
  try {
    progress('server dry run');
    await sendPatch(client, plan, patch, true, subresource);
    progress('patching');
    writing = true;
    const result = await sendPatch(client, plan, patch, false, subresource);
    return {
      status: 'applied',
      changes: diffTouched(live, result, plan.patch),
      generation: result.metadata.generation ?? 0,
      resourceVersion: result.metadata.resourceVersion ?? '',
    };
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 409) return CONFLICT;
    if (error instanceof KubeApiError && error.status === 422) {
      return { status: 'refused', reason: `the API server rejected the patch: ${error.message}` };
    }
    return writeFailure(error, writing);
  }
}
