/**
 * scale-old-replicaset plans: the old ReplicaSet's scale subresource, patched with a
 * JSON patch that tests its uid and its replicas (resourceVersion changes with every
 * status update, so it is no precondition here), after the live checks a patch
 * cannot express: the ReplicaSet is still controlled by the target Deployment, still
 * runs the template it ran at diagnosis (pod-template-hash), is not the Deployment's
 * current ReplicaSet (a rollback would make it so), and the Deployment's current
 * ReplicaSet is still the one seen at diagnosis. Dry run first, field manager
 * rollout-doctor, never touching the Deployment. The Undo (scale-back-old-replicaset)
 * goes through the same checks, up to the count the ReplicaSet had, and is refused
 * once the new ReplicaSet is fully available.
 */
import { workloadKind } from '../../diagnosis/workloads/index.js';
import type { WorkloadKind, WorkloadRef } from '../../diagnosis/workload-ref.js';
import type { Deployment, ReplicaSet } from '../../diagnosis/k8s-workloads.js';
import { OUR_FIELD_MANAGER } from '../../diagnosis/ownership.js';
import { templatesEqual } from '../../diagnosis/workloads/deployment/replica-sets.js';
import {
  PATCH_CONTENT_TYPES,
  type OldReplicaSetTarget,
  type ReplicaSetScalePlan,
} from '../../remediation/plan.js';
import { writeFailure, type ApplyResult, type DryRunResult } from './apply-result.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { getObjectIfExists } from '../list.js';

const HASH_LABEL = 'pod-template-hash';

interface Scale {
  metadata: { name?: string; uid?: string; resourceVersion?: string };
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

type Checked =
  | { ok: true; rs: ReplicaSet; current: ReplicaSet }
  | { ok: false; result: Extract<ApplyResult, { status: 'refused' | 'failed' | 'already-applied' }> };

function refused(reason: string, field?: string): Checked {
  return { ok: false, result: { status: 'refused', reason, ...(field ? { field } : {}) } };
}

/** The ReplicaSet, or undefined when it no longer exists. */
export function readReplicaSet(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<ReplicaSet | undefined> {
  return getObjectIfExists<ReplicaSet>(client, { resource: 'replicasets', namespace, name });
}

/** Its Ready pods (none when it is gone). */
export const readyOf = (rs: ReplicaSet | undefined): number => rs?.status?.readyReplicas ?? 0;

const controlledBy = (rs: ReplicaSet, kind: WorkloadKind, uid: string | undefined): boolean =>
  uid !== undefined &&
  (rs.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.kind === kind && r.uid === uid);

/** The live checks, in the order a person would ask them. */
export async function check(
  client: KubeClient,
  workload: Pick<WorkloadRef, 'kind' | 'namespace'>,
  target: OldReplicaSetTarget,
  live: Deployment,
  /** The replicas this write assumes (a later step of a stepped scale assumes fewer). */
  expected: number = target.replicas,
): Promise<Checked> {
  // Both ReplicaSets are named in the plan: read side by side (one round trip, not two).
  const [rs, current] = await Promise.all([
    readReplicaSet(client, workload.namespace, target.name),
    readReplicaSet(client, workload.namespace, target.newReplicaSet.name),
  ]);
  if (!rs) return refused(`object deleted: ReplicaSet ${target.name} no longer exists`);
  if (rs.metadata.uid !== target.uid) {
    return refused(
      `object replaced: ReplicaSet ${target.name} was re-created since diagnosis (uid ${target.uid} is now ${rs.metadata.uid ?? ''})`,
    );
  }
  if (!controlledBy(rs, workload.kind, live.metadata.uid)) {
    return refused(
      `ReplicaSet ${target.name} is not controlled by ${workloadKind(workload.kind).words.kind} ${live.metadata.name ?? ''}`,
    );
  }
  const hash = rs.metadata.labels?.[HASH_LABEL];
  if (hash !== target.podTemplateHash) {
    return refused(
      `ReplicaSet ${target.name} has pod-template-hash ${hash ?? '(absent)'}, not ${target.podTemplateHash} as at diagnosis`,
      '/metadata/labels/pod-template-hash',
    );
  }
  if (rs.spec.template && templatesEqual(rs.spec.template, live.spec.template)) {
    return refused(
      `ReplicaSet ${target.name} runs the Deployment's current template (rolled back?): it is the new ReplicaSet now, not an old one`,
    );
  }
  if (
    !current ||
    current.metadata.uid !== target.newReplicaSet.uid ||
    !current.spec.template ||
    !templatesEqual(current.spec.template, live.spec.template)
  ) {
    return refused(
      `the Deployment's new ReplicaSet is no longer ${target.newReplicaSet.name} as at diagnosis: the rollout moved on; diagnose again`,
    );
  }
  const replicas = rs.spec.replicas ?? 0;
  if (replicas === target.to) {
    return {
      ok: false,
      result: {
        status: 'already-applied',
        reason: `ReplicaSet ${target.name} already has ${target.to} replicas`,
        generation: live.metadata.generation ?? 0,
        changes: [{ path: `replicasets/${target.name}/spec/replicas`, before: undefined, after: target.to }],
      },
    };
  }
  if (replicas !== expected) {
    const when =
      expected !== target.replicas
        ? 'after the last step'
        : target.to > target.replicas
          ? 'when the scale was applied'
          : 'at diagnosis';
    return refused(
      `ReplicaSet ${target.name} spec.replicas was ${expected} ${when} and is now ${replicas}`,
      '/spec/replicas',
    );
  }
  return { ok: true, rs, current };
}

/** One JSON patch to the ReplicaSet's scale subresource, as our field manager. */
export function patchScale(
  client: KubeClient,
  namespace: string,
  name: string,
  body: unknown,
  dryRun: boolean,
): Promise<Scale> {
  return client.call<Scale>({
    verb: 'patch',
    resource: 'replicasets',
    subresource: 'scale',
    namespace,
    name,
    body,
    contentType: PATCH_CONTENT_TYPES.json,
    query: { fieldManager: OUR_FIELD_MANAGER, ...(dryRun ? { dryRun: 'All' } : {}) },
  });
}

/** The plan's own (sealed) scale patch. */
function sendScale(
  client: KubeClient,
  plan: ReplicaSetScalePlan,
  target: OldReplicaSetTarget,
  dryRun: boolean,
): Promise<Scale> {
  return patchScale(client, plan.target.namespace, target.name, plan.patch?.body, dryRun);
}

/**
 * How a scale that did not go through ends, the same for every scale-old-replicaset
 * write (all at once, or the first step of a walk): a failed `test` (uid or replicas
 * changed between our read and the write; 422, or 409) is a refusal; anything else a
 * failure, retryable for 0/429/5xx, its outcome unknown when the write got no answer.
 */
export function scaleFailure(
  error: unknown,
  writing: boolean,
): Extract<ApplyResult, { status: 'refused' | 'failed' }> {
  if (error instanceof KubeApiError && (error.status === 422 || error.status === 409)) {
    return {
      status: 'refused',
      reason: `the API server refused the write (the object changed since it was checked): ${error.message}`,
    };
  }
  return writeFailure(error, writing);
}

/**
 * A scale up (the Undo, scale-back-old-replicaset: the allowlist lets only it scale
 * up) is refused once the Deployment's new ReplicaSet is fully available: the
 * Deployment controller scales an old ReplicaSet straight back down then
 * (reconcileOldReplicaSets: its pods are unhealthy surplus), so the only effect would
 * be old pods started and killed.
 */
function scaleBackRefusal(
  plan: ReplicaSetScalePlan,
  checked: Extract<Checked, { ok: true }>,
  live: Deployment,
): Extract<ApplyResult, { status: 'refused' }> | undefined {
  if (plan.replicaSet.to <= plan.replicaSet.replicas) return undefined;
  const replicas = live.spec.replicas ?? 1;
  const available = checked.current.status?.availableReplicas ?? 0;
  if (available < replicas) return undefined;
  return {
    status: 'refused',
    reason: `the new ReplicaSet ${checked.current.metadata.name ?? ''} is fully available (${available} of ${replicas}): the Deployment controller would scale ${checked.rs.metadata.name ?? ''} straight back down. To get the old version back, roll the Deployment back (kubectl rollout undo deployment/${plan.target.name} -n ${plan.target.namespace}, or revert the change in Git)`,
  };
}

/** Checks and asks the server what the scale would do, without changing anything. */
export async function dryRunScale(
  client: KubeClient,
  plan: ReplicaSetScalePlan,
  live: Deployment,
): Promise<DryRunResult> {
  const target = plan.replicaSet;
  const checked = await check(client, plan.target, target, live);
  if (!checked.ok) return { ok: false, reason: checked.result.reason };
  const late = scaleBackRefusal(plan, checked, live);
  if (late) return { ok: false, reason: late.reason };
  const result = await sendScale(client, plan, target, true);
  return {
    ok: true,
    changes: [
      {
        path: `replicasets/${target.name}/spec/replicas`,
        before: checked.rs.spec.replicas ?? 0,
        after: result.spec?.replicas ?? 0,
      },
    ],
  };
}

/**
 * Checks, dry-runs, then scales (all at once, or back up for the Undo; a stepped plan
 * is walked by stepped-walk.ts). The Deployment is not written: the result carries its live
 * generation, unchanged.
 */
export async function applyScale(
  client: KubeClient,
  plan: ReplicaSetScalePlan,
  live: Deployment,
  progress: (step: string) => void,
): Promise<ApplyResult> {
  const target = plan.replicaSet;
  const checked = await check(client, plan.target, target, live);
  if (!checked.ok) return checked.result;
  const late = scaleBackRefusal(plan, checked, live);
  if (late) return late;
  let writing = false;
  try {
    progress('server dry run');
    await sendScale(client, plan, target, true);
    progress(`scaling ReplicaSet ${target.name} to ${target.to}`);
    writing = true;
    const result = await sendScale(client, plan, target, false);
    return {
      status: 'applied',
      changes: [
        {
          path: `replicasets/${target.name}/spec/replicas`,
          before: checked.rs.spec.replicas ?? 0,
          after: result.spec?.replicas ?? 0,
        },
      ],
      generation: live.metadata.generation ?? 0,
      resourceVersion: live.metadata.resourceVersion ?? '',
    };
  } catch (error) {
    return scaleFailure(error, writing);
  }
}
