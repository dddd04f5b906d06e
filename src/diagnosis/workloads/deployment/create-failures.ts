/**
 * ReplicaSets of a Deployment that cannot create their pods, and whether the
 * Deployment controller will take an old pod away before a new one exists.
 *
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go, manageReplicas)
 * records a Warning `FailedCreate` event "Error creating: <error>" for each refused
 * create, and (replica_set_utils.go, calculateStatus) sets `ReplicaFailure=True, reason
 * FailedCreate, message <error>` while the last sync failed, removing it once a sync
 * succeeds: the condition is the current truth, the events history. An event counts
 * only when the ReplicaSet is still short of its replicas and nothing was created
 * after it (a later `SuccessfulCreate` means the refusal passed).
 */
import { eventTime } from '../../base/pod-events.js';
import type { Deployment, ReplicaSet } from '../../k8s-workloads.js';
import type { KubeEvent } from '../../k8s.js';
import type { DeploymentObjects, WorkloadSnapshot } from '../../snapshot/types.js';
import type { CreateFailure } from '../../workload-kind.js';
import { classifyReplicaSets, podsOfReplicaSet, REVISION } from './replica-sets.js';
import { desiredReplicas, resolveStrategy } from './deployment-strategy.js';
import { isTerminal } from '../../base/pods.js';

function eventsOf(events: readonly KubeEvent[], rs: ReplicaSet): KubeEvent[] {
  const { uid, name } = rs.metadata;
  return events.filter(
    (e) =>
      e.involvedObject.kind === 'ReplicaSet' &&
      (uid && e.involvedObject.uid ? e.involvedObject.uid === uid : e.involvedObject.name === name),
  );
}

function label(rs: ReplicaSet): string {
  const number = rs.metadata.annotations?.[REVISION];
  return `ReplicaSet ${rs.metadata.name ?? ''}${number ? ` (revision ${number})` : ''}`;
}

/**
 * Each ReplicaSet whose pods the API server refuses now, the current one first. Before
 * the controller has observed the Deployment's latest spec, an old ReplicaSet's refusal
 * is left out: the next sync sizes every ReplicaSet anew (a template reverted to an old
 * ReplicaSet's makes that one current and scales the refused one down, sync.go
 * getNewReplicaSet), so what it refused is from before.
 */
export function createFailures(
  snapshot: DeploymentObjects & Pick<WorkloadSnapshot, 'pods' | 'events'>,
): CreateFailure[] {
  const failures = replicaSetCreateFailures(classifyReplicaSets(snapshot), snapshot, label);
  const { metadata, status } = snapshot.deployment;
  const observed = (status?.observedGeneration ?? 0) >= (metadata.generation ?? 0);
  return observed ? failures : failures.filter((f) => f.current);
}

/**
 * The same for any workload whose revisions are ReplicaSets (a Deployment's, an Argo
 * Rollout's): `label` names one, `hashLabel` finds its pods where uids are missing.
 */
export function replicaSetCreateFailures(
  { current, old }: { current?: ReplicaSet; old: readonly ReplicaSet[] },
  snapshot: Pick<WorkloadSnapshot, 'pods' | 'events'>,
  label: (rs: ReplicaSet) => string,
  hashLabel?: string,
): CreateFailure[] {
  const out: CreateFailure[] = [];
  for (const rs of [...(current ? [current] : []), ...old]) {
    const want = rs.spec.replicas ?? 0;
    const have = podsOfReplicaSet(snapshot, rs, hashLabel).filter((p) => !isTerminal(p)).length;
    // The controller removes the condition at its first sync that creates nothing (calculateStatus):
    // on a ReplicaSet that wants no more pods than it has, one still there is from before.
    const condition =
      want <= have
        ? undefined
        : rs.status?.conditions?.find(
            (c) => c.type === 'ReplicaFailure' && c.status === 'True' && c.reason === 'FailedCreate',
          );
    const events = eventsOf(snapshot.events, rs).sort((a, b) => eventTime(b).localeCompare(eventTime(a)));
    const lastFailed = events.find((e) => e.reason === 'FailedCreate' && e.message);
    const lastCreated = events.find((e) => e.reason === 'SuccessfulCreate');
    const eventCurrent =
      lastFailed !== undefined &&
      want > have &&
      (lastCreated === undefined || eventTime(lastFailed) >= eventTime(lastCreated));
    const message = condition?.message ?? (eventCurrent ? lastFailed.message : undefined);
    if (!message) continue;
    const at = condition
      ? (condition.lastTransitionTime ?? (lastFailed ? eventTime(lastFailed) : undefined))
      : lastFailed
        ? eventTime(lastFailed)
        : undefined;
    out.push({
      revision: rs.metadata.name ?? '',
      label: label(rs),
      current: rs === current,
      message,
      source: condition ? 'condition' : 'event',
      ...(at ? { at } : {}),
      ...(lastFailed?.count !== undefined ? { count: lastFailed.count } : {}),
      missing: Math.max(0, want - have),
    });
  }
  return out;
}

/**
 * Whether the Deployment controller, at the counts it observes now, keeps every old
 * pod until a new one is available: Recreate never does; a rolling update scales old
 * ReplicaSets down only by `allPods − (replicas − maxUnavailable) − newRSUnavailable`
 * (pkg/controller/deployment/rolling.go, reconcileOldReplicaSets), where the new
 * ReplicaSet's replicas that were never created count as unavailable: with nothing
 * created, a surge of one and maxUnavailable 1 on 2 replicas still removes nothing.
 * `availableNew`: that many more new pods counted available.
 */
export function keepsOldPods(snapshot: DeploymentObjects, availableNew = 0): boolean {
  const deployment: Deployment = snapshot.deployment;
  const strategy = resolveStrategy(deployment);
  if (strategy.type === 'Recreate') return false;
  const { current } = classifyReplicaSets(snapshot);
  const replicas = desiredReplicas(deployment);
  const allPods = snapshot.replicaSets.reduce((sum, rs) => sum + (rs.status?.replicas ?? 0), 0);
  const minAvailable = replicas - (strategy.maxUnavailable?.value ?? 0);
  const newUnavailable = current
    ? (current.spec.replicas ?? 0) - (current.status?.availableReplicas ?? 0) - availableNew
    : 0;
  return allPods - minAvailable - newUnavailable <= 0;
}
