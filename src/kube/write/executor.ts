/**
 * Applies one remediation plan, once, safely: re-read the Deployment, refuse when the
 * plan's preconditions no longer hold, recognise a plan that already landed (a job
 * retried after a worker crash), dry-run on the server, then patch for real with the
 * verified resourceVersion so a concurrent writer produces a 409 that we re-check
 * instead of overwriting. A restart marker in the patch becomes the time of the
 * apply (src/remediation/restart-time.ts).
 */
import type { Deployment } from '../../diagnosis/k8s.js';
import { checkPlanWithinKind } from '../../remediation/patch-allowlist.js';
import { PATCH_CONTENT_TYPES, type Patch, type RemediationPlan } from '../../remediation/plan.js';
import { fillApplyTime } from '../../remediation/restart-time.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { getObject } from '../list.js';
import {
  diffTouched,
  isAlreadyApplied,
  valuesInPlace,
  withResourceVersion,
  type FieldChange,
} from './patch-effect.js';
import { deletePods } from './pod-deleter.js';
import { applyDeviceTaint, dryRunDeviceTaint } from './device-taint-writer.js';
import { deviceName } from '../../remediation/device-taint.js';
import { scaleBackPlan } from '../../remediation/scale-back.js';
import { checkPreconditions } from './preconditions.js';
import { failure, writeFailure, type ApplyResult, type DryRunResult } from './apply-result.js';
import { applyScale, dryRunScale } from './replicaset-scaler.js';
import { applyStepped, type StepOptions } from './stepped-walk.js';

export type { FieldChange } from './patch-effect.js';

export type { ApplyResult, DryRunResult } from './apply-result.js';

/** Kinds written to an old ReplicaSet's scale subresource, never to the Deployment. */
const isScaleKind = (kind: RemediationPlan['kind']): boolean =>
  kind === 'scale-old-replicaset' || kind === 'scale-back-old-replicaset';

/** Re-checks after a 409 before giving up; each round re-reads and re-verifies. */
const MAX_CONFLICT_ROUNDS = 3;

type Prepared =
  | { kind: 'go'; live: Deployment; patch: Patch }
  | { kind: 'done'; result: Exclude<ApplyResult, { status: 'applied' }> };

/** Test seam: the clock that chooses the restart time (restart-time.ts). */
export interface ExecutorOptions {
  now?: () => Date;
  /** Pacing of a stepped scale-old-replicaset (replicaset-scaler.ts). */
  step?: StepOptions;
}

async function prepare(
  client: KubeClient,
  plan: RemediationPlan,
  options: ExecutorOptions,
): Promise<Prepared> {
  let live: Deployment;
  try {
    live = await getObject<Deployment>(client, {
      resource: 'deployments',
      namespace: plan.target.namespace,
      name: plan.target.name,
    });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) {
      return {
        kind: 'done',
        result: { status: 'refused', reason: 'object deleted: the Deployment no longer exists' },
      };
    }
    return { kind: 'done', result: failure(error) };
  }
  // Before anything else, whatever the plan's origin: it may only change what its kind exists to change.
  const scope = checkPlanWithinKind(plan, live);
  if (!scope.ok) return { kind: 'done', result: { status: 'refused', reason: scope.reason, tampered: true } };
  if (
    (live.metadata.uid ?? '') === plan.preconditions.uid &&
    !isScaleKind(plan.kind) &&
    plan.patch &&
    isAlreadyApplied(live, plan.patch, plan.preconditions.fields)
  ) {
    return {
      kind: 'done',
      result: {
        status: 'already-applied',
        reason: 'the live Deployment already has every value this plan sets',
        generation: live.metadata.generation ?? 0,
        changes: valuesInPlace(live, plan.patch),
      },
    };
  }
  // The Undo of taint-device deletes a cluster-scoped rule: a later spec change of
  // the Deployment (a new generation) must not strand it, so only the uid counts.
  const verdict = checkPreconditions(
    live,
    plan.kind === 'untaint-device'
      ? { ...plan.preconditions, generation: live.metadata.generation ?? 0 }
      : plan.preconditions,
  );
  if (!verdict.ok) return { kind: 'done', result: { status: 'refused', ...verdict } };
  if (!plan.patch) return { kind: 'go', live, patch: { type: 'strategic-merge', body: {} } };
  // Goes to the old ReplicaSet's scale (replicaset-scaler.ts), guarded by its own tests.
  if (isScaleKind(plan.kind)) return { kind: 'go', live, patch: plan.patch };
  // The approved patch as sealed, with the restart marker (if any) set to now: the
  // restart time is chosen here, at apply time, like `kubectl rollout restart`.
  const now = options.now?.() ?? new Date();
  const patch = fillApplyTime(plan.patch, now);
  return { kind: 'go', live, patch: withResourceVersion(patch, live.metadata.resourceVersion ?? '') };
}

function sendPatch(
  client: KubeClient,
  plan: RemediationPlan,
  patch: Patch,
  dryRun: boolean,
): Promise<Deployment> {
  return client.call<Deployment>({
    verb: 'patch',
    resource: 'deployments',
    namespace: plan.target.namespace,
    name: plan.target.name,
    body: patch.body,
    contentType: PATCH_CONTENT_TYPES[patch.type],
    query: { fieldManager: 'rollout-doctor', ...(dryRun ? { dryRun: 'All' } : {}) },
  });
}

/** A write raced us: the resourceVersion we sent is no longer the stored one (409). */
function isRace(error: unknown): boolean {
  return error instanceof KubeApiError && error.status === 409;
}

/**
 * Verifies the plan against the live object and asks the server what the patch
 * would change (`dryRun=All`), without changing anything.
 */
export async function dryRunPlan(
  client: KubeClient,
  plan: RemediationPlan,
  options: ExecutorOptions = {},
): Promise<DryRunResult> {
  const prepared = await prepare(client, plan, options);
  if (prepared.kind === 'done') return { ok: false, reason: prepared.result.reason };
  if (plan.kind === 'taint-device' || plan.kind === 'untaint-device') {
    return dryRunDeviceTaint(client, plan, prepared.live);
  }
  if (isScaleKind(plan.kind)) {
    try {
      return await dryRunScale(client, plan, prepared.live);
    } catch (error) {
      return { ok: false, reason: failure(error).reason };
    }
  }
  if (!plan.patch) {
    return {
      ok: true,
      changes: (plan.pods ?? []).map((p) => ({
        path: `pods/${p.name}`,
        before: 'present',
        after: 'deleted',
      })),
    };
  }
  try {
    const result = await sendPatch(client, plan, prepared.patch, true);
    return { ok: true, changes: diffTouched(prepared.live, result, plan.patch) };
  } catch (error) {
    return { ok: false, reason: failure(error).reason };
  }
}

/**
 * Applies the plan: verify, dry-run, patch. Never overwrites a concurrent change: a
 * 409 sends it back to re-read and re-verify, so the second round either refuses
 * (the change touched what we assumed) or reports already-applied.
 */
export async function applyPlan(
  client: KubeClient,
  plan: RemediationPlan,
  options: ExecutorOptions & { onProgress?: (step: string) => void } = {},
): Promise<ApplyResult> {
  const progress = options.onProgress ?? (() => undefined);
  for (let round = 0; round < MAX_CONFLICT_ROUNDS; round += 1) {
    progress(round === 0 ? 'checking preconditions' : 'conflict: re-reading and re-checking');
    const prepared = await prepare(client, plan, options);
    if (prepared.kind === 'done') return prepared.result;
    if (plan.kind === 'taint-device' || plan.kind === 'untaint-device') {
      return applyDeviceTaint(client, plan, prepared.live, progress);
    }
    if (isScaleKind(plan.kind)) {
      try {
        return plan.replicaSet?.stepped
          ? await applyStepped(client, plan, plan.replicaSet, prepared.live, progress, options.step)
          : await applyScale(client, plan, prepared.live, progress);
      } catch (error) {
        return failure(error);
      }
    }
    if (!plan.patch) {
      progress('deleting pods');
      return deletePods(client, plan, prepared.live);
    }
    let writing = false;
    try {
      progress('server dry run');
      await sendPatch(client, plan, prepared.patch, true);
      progress('patching');
      writing = true;
      const result = await sendPatch(client, plan, prepared.patch, false);
      return {
        status: 'applied',
        changes: diffTouched(prepared.live, result, plan.patch),
        generation: result.metadata.generation ?? 0,
        resourceVersion: result.metadata.resourceVersion ?? '',
      };
    } catch (error) {
      if (isRace(error)) continue;
      if (error instanceof KubeApiError && error.status === 422) {
        return { status: 'refused', reason: `the API server rejected the patch: ${error.message}` };
      }
      return writeFailure(error, writing);
    }
  }
  return {
    status: 'failed',
    reason: 'the Deployment kept changing under us (repeated 409 Conflict)',
    retryable: true,
  };
}

/**
 * A plan that undoes an applied one, with preconditions on what the apply left:
 * same uid, the generation the apply produced, and each changed field at its new value.
 */
export function inversePlan(
  plan: RemediationPlan,
  applied: { generation: number; changes: FieldChange[] },
): RemediationPlan | null {
  if (plan.kind === 'taint-device' && plan.deviceTaint) {
    const { pods: _pods, ...rest } = plan;
    return {
      ...rest,
      id: `undo-${plan.id}`,
      kind: 'untaint-device',
      summary: `Undo: delete DeviceTaintRule ${plan.deviceTaint.name}, so new claims may get device ${deviceName(plan.deviceTaint)} again.`,
      impact:
        'deletes the cluster-scoped DeviceTaintRule; no pod is deleted and the Deployment is unchanged. New claims of any tenant may be allocated the device again.',
      warnings: [],
      patch: null,
      inverse: null,
      preconditions: { uid: plan.preconditions.uid, generation: applied.generation, fields: [] },
    };
  }
  if (plan.kind === 'scale-old-replicaset') return scaleBackPlan(plan, applied);
  if (!plan.inverse) return null;
  return {
    ...plan,
    id: `undo-${plan.id}`,
    summary: `Undo: ${plan.summary}`,
    // Only a change to the pod template starts a rollout (the strategy is not in it).
    impact: applied.changes.some((c) => c.path === '/spec/template' || c.path.startsWith('/spec/template/'))
      ? 'restores the fields the remediation changed; the pod template changes, so this starts a new rollout'
      : 'restores the fields the remediation changed; starts no rollout (the pod template is unchanged)',
    warnings: [],
    patch: plan.inverse,
    inverse: plan.patch,
    preconditions: {
      uid: plan.preconditions.uid,
      generation: applied.generation,
      fields: applied.changes.map((c) => ({ path: c.path, value: c.after })),
    },
  };
}
