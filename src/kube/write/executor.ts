/**
 * Applies one remediation plan, once, safely: re-read the Deployment, refuse a plan
 * outside what its kind may change (the allowlist) or whose preconditions no longer
 * hold, recognise a plan that already landed (a job retried after a worker crash),
 * then hand it to the writer of the write its kind comes to (src/remediation/kinds/:
 * `writes`), one writer per target in this folder: each dry-runs on the server first.
 * A patch of the Deployment is sent with the verified resourceVersion, so a concurrent
 * writer produces a 409 that sends the executor back to re-read and re-check instead
 * of overwriting.
 */
import type { Deployment as K8sDeployment } from '../../diagnosis/k8s-workloads.js';
import type { WorkloadObject as Deployment } from '../../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES } from '../../diagnosis/workload-ref.js';
import { kindOf } from '../../remediation/kinds/index.js';
import type { WriteOperation } from '../../remediation/kinds/kind.js';
import { checkPlanWithinKind } from '../../remediation/patch-allowlist.js';
import type {
  DeletePodsPlan,
  RemediationPlan,
  ReplicaSetScalePlan,
  TaintDevicePlan,
  UntaintDevicePlan,
  WorkloadPatchPlan,
} from '../../remediation/plan.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { getObject } from '../list.js';
import { failure, type ApplyResult, type DryRunResult } from './apply-result.js';
import { applyPatch, CONFLICT, dryRunPatch, patchInPlace } from './workload-patcher.js';
import { applyTaint, applyUntaint, dryRunTaint, dryRunUntaint } from './device-taint-writer.js';
import { deletePods, dryRunDeletePods } from './pod-deleter.js';
import { checkPreconditions } from './preconditions.js';
import { applyScale, dryRunScale } from './replicaset-scaler.js';
import { applyStepped, type StepOptions } from './stepped-walk.js';

export type { FieldChange } from './patch-effect.js';

export type { ApplyResult, DryRunResult } from './apply-result.js';

/** Re-checks after a 409 before giving up; each round re-reads and re-verifies. */
const MAX_CONFLICT_ROUNDS = 3;

export interface ExecutorOptions {
  /** Test seam: the clock that chooses the restart time (restart-time.ts). */
  now?: () => Date;
  /** Pacing of a stepped scale-old-replicaset, and its re-proof between steps (stepped-walk.ts). */
  step?: StepOptions;
}

/** What a writer is handed: the plan's Deployment as re-read and checked, and how to report. */
interface WriteContext {
  client: KubeClient;
  live: Deployment;
  now: Date;
  progress: (step: string) => void;
  options: ExecutorOptions;
}

/** One write operation: its dry run, its write (CONFLICT: re-read and re-check), and whether it already landed. */
interface Writer<P extends RemediationPlan> {
  /** Before the preconditions: the write already in place on the live Deployment (a retry), or undefined. */
  landed?(plan: P, live: Deployment): Extract<ApplyResult, { status: 'already-applied' }> | undefined;
  dryRun(plan: P, at: WriteContext): Promise<DryRunResult>;
  apply(plan: P, at: WriteContext): Promise<ApplyResult | typeof CONFLICT>;
}

/**
 * A ReplicaSet scale plan targets a Deployment (its kind lists no other workload kind,
 * and the allowlist refuses any other target before a writer runs): its workload as one.
 */
function deploymentOf(live: Deployment): K8sDeployment {
  return live as K8sDeployment;
}

const scaleWriter: Writer<ReplicaSetScalePlan> = {
  // Goes to the old ReplicaSet's scale, guarded by its own tests (replicaset-scaler.ts).
  dryRun: (plan, at) =>
    dryRunScale(at.client, plan, deploymentOf(at.live)).catch((error: unknown) => ({
      ok: false as const,
      reason: failure(error).reason,
    })),
  apply: (plan, at) =>
    (plan.replicaSet.stepped
      ? applyStepped(at.client, plan, deploymentOf(at.live), at.progress, at.options.step)
      : applyScale(at.client, plan, deploymentOf(at.live), at.progress)
    ).catch(failure),
};

/** The writer of each write a kind's plan may come to (src/remediation/kinds/kind.ts WriteOperation). */
const WRITERS: { [O in WriteOperation]: Writer<never> } = {
  'workload-patch': {
    landed: patchInPlace,
    dryRun: (plan, at) => dryRunPatch(at.client, plan, at.live, at.now),
    apply: (plan, at) => applyPatch(at.client, plan, at.live, at.now, at.progress),
  } satisfies Writer<WorkloadPatchPlan>,
  'workload-status-patch': {
    landed: patchInPlace,
    dryRun: (plan, at) => dryRunPatch(at.client, plan, at.live, at.now, 'status'),
    apply: (plan, at) => applyPatch(at.client, plan, at.live, at.now, at.progress, 'status'),
  } satisfies Writer<WorkloadPatchPlan>,
  'replicaset-scale': scaleWriter,
  'pod-deletion': {
    dryRun: (plan) => Promise.resolve(dryRunDeletePods(plan)),
    apply: (plan, at) => {
      at.progress('deleting pods');
      return deletePods(at.client, plan, at.live);
    },
  } satisfies Writer<DeletePodsPlan>,
  'device-taint-rule-creation': {
    dryRun: (plan, at) => dryRunTaint(at.client, plan, at.live),
    apply: (plan, at) => applyTaint(at.client, plan, at.live, at.progress),
  } satisfies Writer<TaintDevicePlan>,
  'device-taint-rule-deletion': {
    dryRun: (plan, at) => dryRunUntaint(at.client, plan),
    apply: (plan, at) => applyUntaint(at.client, plan, at.live, at.progress),
  } satisfies Writer<UntaintDevicePlan>,
};

/** The writer for a plan; its kind's module names the write (the registry pairs each kind with its plan type). */
function writerOf<P extends RemediationPlan>(plan: P): Writer<P> {
  return WRITERS[kindOf(plan).writes] as Writer<P>;
}

type Prepared =
  { kind: 'go'; live: Deployment } | { kind: 'done'; result: Exclude<ApplyResult, { status: 'applied' }> };

/** Re-reads the Deployment and checks the plan against it, before any write. */
async function prepare(client: KubeClient, plan: RemediationPlan): Promise<Prepared> {
  let live: Deployment;
  try {
    live = await getObject<Deployment>(client, {
      resource: WORKLOAD_NAMES[plan.target.kind].resource,
      namespace: plan.target.namespace,
      name: plan.target.name,
    });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) {
      return {
        kind: 'done',
        result: { status: 'refused', reason: `object deleted: the ${plan.target.kind} no longer exists` },
      };
    }
    return { kind: 'done', result: failure(error) };
  }
  // Before anything else, whatever the plan's origin: it may only change what its kind exists to change.
  const scope = checkPlanWithinKind(plan, live);
  if (!scope.ok) return { kind: 'done', result: { status: 'refused', reason: scope.reason, tampered: true } };
  const landed =
    (live.metadata.uid ?? '') === plan.preconditions.uid ? writerOf(plan).landed?.(plan, live) : undefined;
  if (landed) return { kind: 'done', result: landed };
  // A kind stale only once its workload is replaced (the Undo of taint-device deletes
  // a cluster-scoped rule: a later spec change must not strand it) checks the uid alone.
  const verdict = checkPreconditions(
    live,
    kindOf(plan).staleWhen === 'replaced'
      ? { ...plan.preconditions, generation: live.metadata.generation ?? 0 }
      : plan.preconditions,
    plan.target.kind,
  );
  if (!verdict.ok) return { kind: 'done', result: { status: 'refused', ...verdict } };
  return { kind: 'go', live };
}

/**
 * Verifies the plan against the live object and asks the server what the write
 * would change (`dryRun=All`), without changing anything.
 */
export async function dryRunPlan(
  client: KubeClient,
  plan: RemediationPlan,
  options: ExecutorOptions = {},
): Promise<DryRunResult> {
  // As executePlan: a 409 (a status write between the read and the dry run) reads again
  // and checks again, so a benign write never reads as a refusal.
  for (let round = 0; round < MAX_CONFLICT_ROUNDS; round += 1) {
    const prepared = await prepare(client, plan);
    if (prepared.kind === 'done') return { ok: false, reason: prepared.result.reason };
    const now = options.now?.() ?? new Date();
    const result = await writerOf(plan).dryRun(plan, {
      client,
      live: prepared.live,
      now,
      progress: () => undefined,
      options,
    });
    if (result.ok || !result.conflict) return result;
  }
  return { ok: false, reason: `the ${plan.target.kind} kept changing under us (repeated 409 Conflict)` };
}

/**
 * Applies the plan: verify, dry-run, write. Never overwrites a concurrent change: a
 * 409 sends it back to re-read and re-verify, so the second round either refuses
 * (the change touched what we assumed) or reports already-applied. A stepped
 * scale-old-replicaset needs `options.step.reprove` (src/apply/apply-plan.ts gives it).
 */
export async function executePlan(
  client: KubeClient,
  plan: RemediationPlan,
  options: ExecutorOptions & { onProgress?: (step: string) => void } = {},
): Promise<ApplyResult> {
  const progress = options.onProgress ?? (() => undefined);
  for (let round = 0; round < MAX_CONFLICT_ROUNDS; round += 1) {
    progress(round === 0 ? 'checking preconditions' : 'conflict: re-reading and re-checking');
    const prepared = await prepare(client, plan);
    if (prepared.kind === 'done') return prepared.result;
    // The restart time is chosen here, at apply time, like `kubectl rollout restart`.
    const now = options.now?.() ?? new Date();
    const result = await writerOf(plan).apply(plan, { client, live: prepared.live, now, progress, options });
    if (result !== CONFLICT) return result;
  }
  return {
    status: 'failed',
    reason: `the ${plan.target.kind} kept changing under us (repeated 409 Conflict)`,
    retryable: true,
  };
}
