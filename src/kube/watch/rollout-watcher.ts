/**
 * Follows a Deployment after a remediation until the rollout completes, fails
 * (ProgressDeadlineExceeded, or the new ReplicaSet's pods crash-loop) or the time
 * limit passes. A watch on the Deployment wakes it early; polling every `pollMs`
 * keeps it going when the watch drops or is not allowed. After a plan that only
 * deletes pods (watchReplacements), the rollout status says nothing: the pods do.
 * A paused Deployment whose template no ReplicaSet runs will not move before
 * `kubectl rollout resume` (the controller makes no ReplicaSet for it while paused):
 * that ends the watch at once, as 'paused', instead of at the time limit.
 */
import type { Pod } from '../../diagnosis/k8s.js';
import type { ReplicaSet } from '../../diagnosis/k8s-workloads.js';
import type { RevisionObject, WorkloadObject, WorkloadRef } from '../../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES, typeOfKind } from '../../diagnosis/workload-ref.js';
import { workloadKind, type WorkloadKindModule } from '../../diagnosis/workloads/index.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { labelSelectorString } from '../label-selector.js';
import { getObject, listObjects } from '../list.js';
import { wakeOnChange } from './wake-on-change.js';
import { crashLoopIn, type RolloutProgress } from './new-replicaset-pods.js';
import { isReady, isTerminating } from '../../diagnosis/base/pods.js';
import { templatesEqual } from '../../diagnosis/workloads/deployment/replica-sets.js';

export type { RolloutProgress } from './new-replicaset-pods.js';

export interface RolloutOutcome {
  outcome: 'complete' | 'failed' | 'timeout' | 'paused';
  summary: string;
  reason?: string;
  /** Paused by a canary pause step of its strategy: the step it reached (1-based). */
  pauseStep?: number;
}

export interface WatchRolloutOptions {
  timeoutMs: number;
  /** The generation the remediation produced; earlier observed generations do not count. */
  sinceGeneration?: number;
  onProgress?: (status: RolloutProgress) => void;
  pollMs?: number;
}

/**
 * @example
 * const outcome = await watchRollout(client, ref, { timeoutMs: 300_000, sinceGeneration: applied.generation });
 */
export async function watchRollout(
  client: KubeClient,
  ref: WorkloadRef,
  options: WatchRolloutOptions,
): Promise<RolloutOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 1000;
  const stop = new AbortController();
  let wake: (() => void) | undefined;
  let watching = false;
  let lastMessage = '';
  // The generation at which a ReplicaSet was seen running the template: the paused
  // check lists ReplicaSets once per generation, not on every wake-up.
  let templateRunAt: number | undefined;
  try {
    for (;;) {
      const deployment = await readWorkload(client, ref);
      if ('outcome' in deployment) return deployment;
      const kind = workloadKind(ref.kind);
      const verdict = kind.rolloutStatus(deployment, options.sinceGeneration);
      if (verdict.progress.message !== lastMessage) {
        lastMessage = verdict.progress.message;
        options.onProgress?.(verdict.progress);
      }
      if (verdict.state === 'complete') return { outcome: 'complete', summary: verdict.progress.message };
      if (verdict.state === 'failed') {
        return { outcome: 'failed', summary: verdict.progress.message, reason: verdict.reason };
      }
      // An Argo Rollout at a pause step (or paused by hand) waits for a person; at a timed
      // pause step the controller goes on by itself at its end, so the watch goes on too.
      if (verdict.state === 'paused' && verdict.resumesAt === undefined) {
        return {
          outcome: 'paused',
          summary: `rollout "${ref.name}" is ${verdict.progress.message}: it goes on once promoted (kubectl argo rollouts promote ${ref.name} -n ${ref.namespace})`,
          reason: verdict.reason,
          ...(verdict.step ? { pauseStep: verdict.step } : {}),
        };
      }
      const crash = verdict.progress.updated > 0 ? await newPodsCrash(client, ref, deployment) : undefined;
      if (crash) {
        return { outcome: 'failed', summary: `the new pods of ${ref.name} are crash-looping`, reason: crash };
      }
      const paused = kind.paused(deployment);
      const generation = verdict.progress.generation;
      if (
        kind.pauseHoldsTemplate &&
        paused &&
        verdict.progress.observedGeneration >= generation &&
        templateRunAt !== generation
      ) {
        if (await templateWaitsForResume(client, kind, deployment)) {
          return { outcome: 'paused', summary: pausedWords(ref, 'no ReplicaSet runs its pod template yet') };
        }
        templateRunAt = generation;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        return {
          outcome: 'timeout',
          summary: `gave up after ${seconds(options.timeoutMs)} s: ${lastMessage}${paused ? `; ${pausedWords(ref, 'its rollout may need the resume')}` : ''}`,
        };
      }
      if (!watching) {
        watching = true;
        // Best effort: if the watch is refused or drops, polling carries on alone.
        wakeOnChange(
          client,
          {
            resource: WORKLOAD_NAMES[ref.kind].resource,
            namespace: ref.namespace,
            name: ref.name,
            resourceVersion: deployment.metadata.resourceVersion,
          },
          stop.signal,
          () => wake?.(),
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(pollMs, remaining));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    stop.abort();
  }
}

function pausedWords(ref: WorkloadRef, state: string): string {
  // No backticks: the thread shows this escaped (a backtick becomes a look-alike), and a
  // command copied from there must run.
  return `deployment "${ref.name}" is paused and ${state}: nothing rolls out until it is resumed (kubectl rollout resume deployment/${ref.name} -n ${ref.namespace})`;
}

/**
 * Paused, the Deployment controller only scales (upstream sync()): it makes no
 * ReplicaSet for a template none runs, so such a rollout waits for the resume (asked
 * only of a kind whose pause holds its template back: `pauseHoldsTemplate`).
 */
async function templateWaitsForResume(
  client: KubeClient,
  kind: WorkloadKindModule,
  object: WorkloadObject,
): Promise<boolean> {
  const replicaSets = await listObjects<ReplicaSet>(client, {
    resource: 'replicasets',
    namespace: object.metadata.namespace,
    query: { labelSelector: labelSelectorString(kind.selector(object)) },
  });
  const owned = replicaSets.items.filter((rs) =>
    (rs.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === object.metadata.uid),
  );
  const template = kind.podTemplate(object);
  return !owned.some((rs) => rs.spec.template && templatesEqual(rs.spec.template, template));
}

/** A crash loop among the pods of the workload's current revision (the kind module says which those are). */
async function newPodsCrash(
  client: KubeClient,
  ref: WorkloadRef,
  object: WorkloadObject,
): Promise<string | undefined> {
  const kind = workloadKind(ref.kind);
  const namespace = object.metadata.namespace;
  const selector = labelSelectorString(kind.selector(object));
  const [revisions, pods] = await Promise.all([
    listObjects<RevisionObject>(client, {
      resource: kind.revisionObjects.resource,
      namespace,
      query: { labelSelector: selector },
    }),
    listObjects<Pod>(client, { resource: 'pods', namespace, query: { labelSelector: selector } }),
  ]);
  const own = kind.own(object, { revisions: revisions.items, pods: pods.items }, () => true);
  const { current } = kind.revisions({ ...kind.objects(object, own.revisions), pods: own.pods });
  return current ? crashLoopIn(current.pods) : undefined;
}

export interface WatchReplacementsOptions {
  timeoutMs: number;
  /** The pods the plan deleted (name and uid): their ReplicaSets replace them. */
  replaced: { name: string; uid: string }[];
  pollMs?: number;
}

/**
 * After a plan that deletes pods and changes no pod template (delete-pods,
 * taint-device): complete when at least spec.replicas pods of the Deployment, other
 * than the deleted ones and not terminating, are Ready, so the Deployment is served
 * without them (the deleted pods were crash-looping, not Ready: their replacements are
 * what makes up the count); failed when a pod that was not already crash-looping at the
 * first look (a replacement) crash-loops, or the Deployment is gone. The Deployment's
 * rollout status is not used: it is unchanged by a deletion and may still show the
 * pods as they were just before.
 */
export async function watchReplacements(
  client: KubeClient,
  ref: WorkloadRef,
  options: WatchReplacementsOptions,
): Promise<RolloutOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 1000;
  const deleted = new Set(options.replaced.map((p) => p.uid));
  let crashingBefore: Set<string> | undefined;
  for (;;) {
    const deployment = await readWorkload(client, ref);
    if ('outcome' in deployment) return deployment;
    const kind = workloadKind(ref.kind);
    const pods = (
      await listObjects<Pod>(client, {
        resource: 'pods',
        namespace: ref.namespace,
        query: { labelSelector: labelSelectorString(kind.selector(deployment)) },
      })
    ).items.filter((p) => !deleted.has(p.metadata.uid ?? '') && !isTerminating(p));
    const crashing = (p: Pod): boolean => crashLoopIn([p]) !== undefined;
    crashingBefore ??= new Set(pods.filter(crashing).map((p) => p.metadata.uid ?? ''));
    const crash = crashLoopIn(pods.filter((p) => !crashingBefore?.has(p.metadata.uid ?? '')));
    if (crash)
      return {
        outcome: 'failed',
        summary: `a replacement pod of ${ref.name} is crash-looping`,
        reason: crash,
      };
    const replicas = kind.desiredReplicas(deployment);
    const ready = pods.filter(isReady).length;
    const last = `${ready} of ${replicas} pods Ready`;
    if (ready >= replicas) {
      return { outcome: 'complete', summary: `the replacement pods are Ready (${last})` };
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      return {
        outcome: 'timeout',
        summary: `gave up after ${seconds(options.timeoutMs)} s waiting for the replacement pods: ${last}`,
      };
    }
    await new Promise<void>((resolve) => setTimeout(resolve, Math.min(pollMs, remaining)));
  }
}

/** "0.3", "12", "300": one decimal only where it matters. */
function seconds(ms: number): string {
  return ms < 10_000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000));
}

/** The workload as it is now, or the outcome that ends a watch when it was deleted. */
async function readWorkload(client: KubeClient, ref: WorkloadRef): Promise<WorkloadObject | RolloutOutcome> {
  try {
    return await getObject<WorkloadObject>(client, {
      resource: WORKLOAD_NAMES[ref.kind].resource,
      namespace: ref.namespace,
      name: ref.name,
    });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) {
      return {
        outcome: 'failed',
        summary: `${typeOfKind(ref.kind)} ${ref.namespace}/${ref.name} was deleted`,
        reason: 'deleted',
      };
    }
    throw error;
  }
}
