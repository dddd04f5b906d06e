/**
 * scale-old-replicaset plans: the old ReplicaSet's scale subresource, patched with a
 * JSON patch that tests its uid and its replicas (resourceVersion changes with every
 * status update, so it is no precondition here), after the live checks a patch
 * cannot express: the ReplicaSet is still controlled by the target Deployment, still
 * runs the template it ran at diagnosis (pod-template-hash), is not the Deployment's
 * current ReplicaSet (a rollback would make it so), and the Deployment's current
 * ReplicaSet is still the one seen at diagnosis. Dry run first, field manager
 * rollout-doctor, never touching the Deployment.
 */
import { AnalysisContext } from '../diagnosis/analysis-context.js';
import type { Deployment, Pod, ReplicaSet } from '../diagnosis/k8s.js';
import { currentDeadlockProof } from '../diagnosis/rollout/surge-proof.js';
import { templatesEqual } from '../diagnosis/rollout/workload.js';
import { escapeToken } from '../remediation/json-pointer.js';
import { PATCH_CONTENT_TYPES, type OldReplicaSetTarget, type RemediationPlan } from '../remediation/plan.js';
import type { KubeClient } from './client.js';
import { KubeApiError } from './errors.js';
import type { ApplyResult, DryRunResult } from './executor.js';
import { collectSnapshot } from './collector.js';
import { getObject } from './list.js';
import { wakeOnChange, wakeableDelay } from './wake-on-change.js';
import type { FieldChange } from './patch-effect.js';

const HASH_LABEL = 'pod-template-hash';
export const FIELD_MANAGER = 'rollout-doctor';

interface Scale {
  metadata: { name?: string; uid?: string; resourceVersion?: string };
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

type Checked =
  | { ok: true; rs: ReplicaSet }
  | { ok: false; result: Extract<ApplyResult, { status: 'refused' | 'failed' | 'already-applied' }> };

function refused(reason: string, field?: string): Checked {
  return { ok: false, result: { status: 'refused', reason, ...(field ? { field } : {}) } };
}

async function read(client: KubeClient, namespace: string, name: string): Promise<ReplicaSet | undefined> {
  try {
    return await getObject<ReplicaSet>(client, { resource: 'replicasets', namespace, name });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return undefined;
    throw error;
  }
}

const controlledBy = (rs: ReplicaSet, uid: string | undefined): boolean =>
  uid !== undefined &&
  (rs.metadata.ownerReferences ?? []).some(
    (r) => r.controller === true && r.kind === 'Deployment' && r.uid === uid,
  );

/** The live checks, in the order a person would ask them. */
async function check(
  client: KubeClient,
  namespace: string,
  target: OldReplicaSetTarget,
  live: Deployment,
  /** The replicas this write assumes (a later step of a stepped scale assumes fewer). */
  expected: number = target.replicas,
): Promise<Checked> {
  const rs = await read(client, namespace, target.name);
  if (!rs) return refused(`object deleted: ReplicaSet ${target.name} no longer exists`);
  if (rs.metadata.uid !== target.uid) {
    return refused(
      `object replaced: ReplicaSet ${target.name} was re-created since diagnosis (uid ${target.uid} is now ${rs.metadata.uid ?? ''})`,
    );
  }
  if (!controlledBy(rs, live.metadata.uid)) {
    return refused(`ReplicaSet ${target.name} is not controlled by Deployment ${live.metadata.name ?? ''}`);
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
  const current = await read(client, namespace, target.newReplicaSet.name);
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
    return refused(
      `ReplicaSet ${target.name} spec.replicas was ${expected} ${expected === target.replicas ? 'at diagnosis' : 'after the last step'} and is now ${replicas}`,
      '/spec/replicas',
    );
  }
  return { ok: true, rs };
}

/** One JSON patch to the ReplicaSet's scale subresource, as our field manager. */
function patchScale(
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
    query: { fieldManager: FIELD_MANAGER, ...(dryRun ? { dryRun: 'All' } : {}) },
  });
}

/** The plan's own (sealed) scale patch. */
function sendScale(
  client: KubeClient,
  plan: RemediationPlan,
  target: OldReplicaSetTarget,
  dryRun: boolean,
): Promise<Scale> {
  return patchScale(client, plan.target.namespace, target.name, plan.patch?.body, dryRun);
}

function rejected(error: unknown): string | undefined {
  // A failed `test` (replicas or uid changed between our read and the write) is a 422.
  if (error instanceof KubeApiError && (error.status === 422 || error.status === 409)) {
    return `the API server refused the scale (the ReplicaSet changed since it was checked): ${error.message}`;
  }
  return undefined;
}

/** Checks and asks the server what the scale would do, without changing anything. */
export async function dryRunScale(
  client: KubeClient,
  plan: RemediationPlan,
  live: Deployment,
): Promise<DryRunResult> {
  const target = plan.replicaSet;
  if (!target) return { ok: false, reason: 'scale-old-replicaset names no ReplicaSet' };
  const checked = await check(client, plan.target.namespace, target, live);
  if (!checked.ok) return { ok: false, reason: checked.result.reason };
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
 * Checks, dry-runs, then scales. The Deployment is not written: the result carries
 * its live generation, unchanged.
 */
export async function applyScale(
  client: KubeClient,
  plan: RemediationPlan,
  live: Deployment,
  progress: (step: string) => void,
  options: StepOptions = {},
): Promise<ApplyResult> {
  const target = plan.replicaSet;
  if (!target)
    return { status: 'refused', reason: 'scale-old-replicaset names no ReplicaSet', tampered: true };
  if (target.stepped) return applyStepped(client, plan, target, live, progress, options);
  const checked = await check(client, plan.target.namespace, target, live);
  if (!checked.ok) return checked.result;
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
    const reason = rejected(error);
    if (reason) return { status: 'refused', reason };
    if (error instanceof KubeApiError) {
      const retryable = error.status === 0 || error.status === 429 || error.status >= 500;
      return {
        status: 'failed',
        reason: error.message,
        retryable,
        ...(writing && error.status === 0 ? { outcomeUnknown: true as const } : {}),
      };
    }
    return {
      status: 'failed',
      reason: error instanceof Error ? error.message : String(error),
      retryable: false,
    };
  }
}

export interface StepOptions {
  /** How long one step may wait for its new pod to be Ready (default 10 minutes). */
  stepTimeoutMs?: number;
  /**
   * Re-read interval while waiting (default 2 s): a watch on the new ReplicaSet wakes
   * the wait as soon as its status changes; the re-read carries on if the watch drops.
   */
  pollMs?: number;
  /** Each step as data, for the Slack thread (src/worker/step-progress.ts). */
  onStep?: (event: StepEvent) => void;
}

/** Why a stepped walk stopped before the old ReplicaSet reached 0. */
export type StepStop =
  'deployment-changed' | 'replicaset-changed' | 'nothing-blocked' | 'ready-timeout' | 'api-error';

/**
 * One step of the walk, as data: step `step` of `of` (the old ReplicaSet's replicas
 * at diagnosis), numbered from the ReplicaSet's replicas so a retried walk numbers
 * its steps as the first attempt did.
 */
export type StepEvent =
  | { phase: 'waiting-ready'; step: number; of: number; replicaSet: string; pod: string }
  | { phase: 'ready'; step: number; of: number; replicaSet: string; pod: string }
  | { phase: 'done'; step: number; of: number; replicaSet: string }
  | { phase: 'stopped'; step: number; of: number; replicaSet: string; reason: StepStop };

const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
/** The lowest cost the API accepts (int32): this pod goes first when the ReplicaSet shrinks. */
const FIRST_TO_GO = String(-2147483648);

/** One step down from `from`, tested against the ReplicaSet's uid and replicas. */
function scaleBy(
  client: KubeClient,
  plan: RemediationPlan,
  target: OldReplicaSetTarget,
  from: number,
  dryRun: boolean,
): Promise<Scale> {
  const body = [
    { op: 'test', path: '/metadata/uid', value: target.uid },
    { op: 'test', path: '/spec/replicas', value: from },
    { op: 'replace', path: '/spec/replicas', value: from - 1 },
  ];
  return patchScale(client, plan.target.namespace, target.name, body, dryRun);
}

/** Marks the pod as the first one its ReplicaSet deletes (uid-tested JSON patch). */
async function markFirstToGo(client: KubeClient, namespace: string, pod: Pod): Promise<void> {
  const key = escapeToken(DELETION_COST);
  const body = [
    { op: 'test', path: '/metadata/uid', value: pod.metadata.uid },
    pod.metadata.annotations
      ? { op: 'add', path: `/metadata/annotations/${key}`, value: FIRST_TO_GO }
      : { op: 'add', path: '/metadata/annotations', value: { [DELETION_COST]: FIRST_TO_GO } },
  ];
  await client.call({
    verb: 'patch',
    resource: 'pods',
    namespace,
    name: pod.metadata.name ?? '',
    body,
    contentType: PATCH_CONTENT_TYPES.json,
    query: { fieldManager: FIELD_MANAGER },
  });
}

/** The old pod whose release lets the Pending new pod schedule, from a fresh snapshot. */
async function blockingPod(
  client: KubeClient,
  plan: RemediationPlan,
  target: OldReplicaSetTarget,
): Promise<Pod | undefined> {
  const snapshot = await collectSnapshot(client, plan.target);
  const proof = currentDeadlockProof(new AnalysisContext(snapshot));
  if (!proof) return undefined;
  return snapshot.pods
    .filter(
      (p) =>
        p.metadata.ownerReferences?.some((r) => r.controller === true && r.uid === target.uid) &&
        p.spec.nodeName !== undefined &&
        proof.nodes.includes(p.spec.nodeName) &&
        p.metadata.deletionTimestamp === undefined,
    )
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))[0];
}

/**
 * The stepped walk to 0: each step re-checks the Deployment (uid, generation) and the
 * ReplicaSet, marks the pod that blocks the surge pod, scales down by one, and waits
 * for one more new pod to be Ready. Stops, saying why, when something changed under
 * it or a step waits too long; what was done by then is reported as applied.
 */
async function applyStepped(
  client: KubeClient,
  plan: RemediationPlan,
  target: OldReplicaSetTarget,
  first: Deployment,
  progress: (step: string) => void,
  options: StepOptions,
): Promise<ApplyResult> {
  const namespace = plan.target.namespace;
  const pollMs = options.pollMs ?? 2000;
  const stepTimeoutMs = options.stepTimeoutMs ?? 10 * 60_000;
  const of = target.replicas;
  /** The step that takes the ReplicaSet from `from` to `from - 1`. */
  const stepOf = (from: number): number => of - from + 1;
  const emit = (event: StepEvent): void => options.onStep?.(event);
  const stopped = (step: number, reason: StepStop): void =>
    emit({ phase: 'stopped', step, of, replicaSet: target.name, reason });
  /**
   * Waits until the new ReplicaSet has more Ready pods than `before`: re-read on every
   * change the watch reports, and every `pollMs` in case the watch is refused or drops.
   */
  const readyAfter = async (before: number): Promise<boolean> => {
    const deadline = Date.now() + stepTimeoutMs;
    const stop = new AbortController();
    let watching = false;
    let wake: (() => void) | undefined;
    try {
      for (;;) {
        const newRs = await read(client, namespace, target.newReplicaSet.name);
        if ((newRs?.status?.readyReplicas ?? 0) > before) return true;
        const remaining = deadline - Date.now();
        if (remaining <= 0) return false;
        if (!watching) {
          watching = true;
          wakeOnChange(
            client,
            {
              resource: 'replicasets',
              namespace,
              name: target.newReplicaSet.name,
              resourceVersion: newRs?.metadata.resourceVersion,
            },
            stop.signal,
            () => wake?.(),
          );
        }
        const delay = wakeableDelay(Math.min(pollMs, remaining));
        wake = delay.wake;
        await delay.done;
        wake = undefined;
      }
    } finally {
      stop.abort();
    }
  };
  const changes: FieldChange[] = [];
  const path = `replicasets/${target.name}/spec/replicas`;
  let expected = target.replicas;
  let live = first;
  const done = (): ApplyResult =>
    changes.length > 0
      ? {
          status: 'applied',
          changes: [{ path, before: target.replicas, after: expected }],
          generation: live.metadata.generation ?? 0,
          resourceVersion: live.metadata.resourceVersion ?? '',
        }
      : {
          status: 'already-applied',
          reason: `ReplicaSet ${target.name} is already at 0`,
          generation: live.metadata.generation ?? 0,
          changes: [{ path, before: undefined, after: 0 }],
        };
  try {
    for (let step = 1; expected > 0; step += 1) {
      if (step > 1) {
        live = await getObject<Deployment>(client, {
          resource: 'deployments',
          namespace,
          name: plan.target.name,
        });
        if (
          live.metadata.uid !== plan.preconditions.uid ||
          (live.metadata.generation ?? 0) !== plan.preconditions.generation
        ) {
          progress(
            `stopped after ${step - 1} step(s): the Deployment changed (generation ${String(live.metadata.generation)})`,
          );
          stopped(stepOf(expected), 'deployment-changed');
          return done();
        }
      }
      const rs = await read(client, namespace, target.name);
      const now = rs?.spec.replicas ?? 0;
      // The Deployment controller may have scaled it down itself as new pods became available.
      if (rs && rs.metadata.uid === target.uid && now < expected) expected = now;
      if (expected === 0) break;
      const checked = await check(client, namespace, target, live, expected);
      if (!checked.ok) {
        if (step === 1) return checked.result;
        progress(`stopped after ${step - 1} step(s): ${checked.result.reason}`);
        stopped(stepOf(expected), 'replicaset-changed');
        return done();
      }
      const pod = await blockingPod(client, plan, target);
      if (!pod) {
        if (step === 1)
          return {
            status: 'refused',
            reason: 'no Pending new pod is blocked by an old pod now: nothing to step',
          };
        progress(`stopped after ${step - 1} step(s): no new pod is blocked by an old one any more`);
        stopped(stepOf(expected), 'nothing-blocked');
        return done();
      }
      const newBefore = await read(client, namespace, target.newReplicaSet.name);
      const readyBefore = newBefore?.status?.readyReplicas ?? 0;
      await scaleBy(client, plan, target, expected, true);
      await markFirstToGo(client, namespace, pod);
      await scaleBy(client, plan, target, expected, false);
      changes.push({ path, before: expected, after: expected - 1 });
      expected -= 1;
      progress(
        `step ${step}: ${pod.metadata.name ?? ''} released, ReplicaSet ${target.name} at ${expected}; waiting for the new pod to be Ready`,
      );
      const podName = pod.metadata.name ?? '';
      const stepNo = stepOf(expected + 1);
      emit({ phase: 'waiting-ready', step: stepNo, of, replicaSet: target.name, pod: podName });
      if (!(await readyAfter(readyBefore))) {
        progress(
          `stopped after ${step} step(s): no new pod became Ready within ${Math.round(stepTimeoutMs / 1000)} s`,
        );
        stopped(stepNo, 'ready-timeout');
        return done();
      }
      emit({ phase: 'ready', step: stepNo, of, replicaSet: target.name, pod: podName });
    }
    if (changes.length > 0) emit({ phase: 'done', step: of, of, replicaSet: target.name });
  } catch (error) {
    const reason = rejected(error) ?? (error instanceof Error ? error.message : String(error));
    if (changes.length === 0) return { status: 'refused', reason };
    progress(`stopped after ${changes.length} step(s): ${reason}`);
    stopped(stepOf(expected), 'api-error');
  }
  return done();
}
