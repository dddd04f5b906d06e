/**
 * Deployment status and the Available/Progressing conditions, including
 * ProgressDeadlineExceeded once no progress was seen for progressDeadlineSeconds.
 */
import type { Condition } from '../../src/diagnosis/k8s.js';
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import { nowRfc3339 } from '../defaults.js';
import { resolveFenceposts } from './rollout-math.js';

export type DeploymentStatus = NonNullable<Deployment['status']>;

function setCondition(conditions: Condition[], next: Condition, now: string): Condition[] {
  const existing = conditions.find((c) => c.type === next.type);
  if (
    existing &&
    existing.status === next.status &&
    existing.reason === next.reason &&
    existing.message === next.message
  ) {
    return conditions.map((c) =>
      c === existing
        ? { ...existing, ...(next.lastUpdateTime ? { lastUpdateTime: next.lastUpdateTime } : {}) }
        : c,
    );
  }
  const merged: Condition = {
    ...next,
    lastUpdateTime: next.lastUpdateTime ?? now,
    lastTransitionTime:
      existing && existing.status === next.status ? (existing.lastTransitionTime ?? now) : now,
  };
  return existing ? conditions.map((c) => (c === existing ? merged : c)) : [...conditions, merged];
}

export interface StatusInput {
  deployment: Deployment;
  newRS: ReplicaSet | undefined;
  newRSName: string | undefined;
  oldRSs: ReplicaSet[];
  createdNewRS: boolean;
  /** Real time (ms) of the last observed progress, kept precisely by the controller. */
  lastProgressMs: number;
  now: number;
  timeScale: number;
}

/** Computes the next status; `progressed` says whether progress was seen now. */
export function computeStatus(input: StatusInput): {
  status: DeploymentStatus;
  progressed: boolean;
  complete: boolean;
} {
  const { deployment: d, newRS, oldRSs } = input;
  const all = [...(newRS ? [newRS] : []), ...oldRSs];
  const sum = (f: (r: ReplicaSet) => number | undefined): number => all.reduce((n, r) => n + (f(r) ?? 0), 0);
  const replicas = d.spec.replicas ?? 1;
  const prev = d.status ?? {};
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 1,
    replicas: sum((r) => r.status?.replicas),
    updatedReplicas: newRS?.status?.replicas ?? 0,
    readyReplicas: sum((r) => r.status?.readyReplicas),
    availableReplicas: sum((r) => r.status?.availableReplicas),
    unavailableReplicas: 0,
    ...(prev.collisionCount !== undefined ? { collisionCount: prev.collisionCount } : {}),
  };
  status.unavailableReplicas = Math.max(0, replicas - (status.availableReplicas ?? 0));
  const rolling = d.spec.strategy?.type !== 'Recreate';
  const maxUnavailable = rolling ? resolveFenceposts(d.spec.strategy?.rollingUpdate, replicas)[1] : 0;
  const nowText = nowRfc3339(new Date(input.now));
  let conditions = [...(prev.conditions ?? [])];
  const available = (status.availableReplicas ?? 0) >= replicas - maxUnavailable;
  conditions = setCondition(
    conditions,
    available
      ? {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        }
      : {
          type: 'Available',
          status: 'False',
          reason: 'MinimumReplicasUnavailable',
          message: 'Deployment does not have minimum availability.',
        },
    nowText,
  );
  const oldReplicas = (s: DeploymentStatus): number => (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  const complete =
    status.updatedReplicas === replicas &&
    status.replicas === replicas &&
    status.availableReplicas === replicas;
  const progressed =
    input.createdNewRS ||
    (status.updatedReplicas ?? 0) > (prev.updatedReplicas ?? 0) ||
    oldReplicas(status) < oldReplicas(prev) ||
    (status.readyReplicas ?? 0) > (prev.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (prev.availableReplicas ?? 0);
  const name = input.newRSName ?? '';
  const before = conditions.find((c) => c.type === 'Progressing')?.reason;
  conditions = pausedConditions(conditions, d, nowText);
  const current = conditions.find((c) => c.type === 'Progressing');
  // The deadline counts from the Progressing condition's last update (DeploymentTimedOut):
  // not while paused, and afresh from the resume.
  const clockReset =
    d.spec.paused === true || (current?.reason === 'DeploymentResumed' && before !== current.reason);
  const next = nextProgressing({
    input,
    current,
    name,
    complete,
    progressed,
    nowText,
  });
  if (next) conditions = setCondition(conditions, next, nowText);
  if (!d.spec.paused) conditions = withReplicaFailure(conditions, newRS, oldRSs);
  // Keep Available before Progressing like the controller writes them.
  conditions.sort((a, b) => (a.type === 'Available' ? -1 : b.type === 'Available' ? 1 : 0));
  status.conditions = conditions;
  return { status, progressed: progressed || clockReset, complete };
}

interface ProgressFacts {
  input: StatusInput;
  current: Condition | undefined;
  name: string;
  complete: boolean;
  progressed: boolean;
  nowText: string;
}

/**
 * The Progressing condition sync() writes now (syncRolloutStatus, calculateStatus), or
 * none: NewReplicaSetCreated, NewReplicaSetAvailable, ReplicaSetUpdated,
 * FoundNewReplicaSet, then ProgressDeadlineExceeded once no progress was seen for
 * progressDeadlineSeconds. A paused Deployment gets none (syncDeploymentStatus only).
 */
function nextProgressing(f: ProgressFacts): Condition | undefined {
  const { input, current, name, nowText } = f;
  const d = input.deployment;
  if (d.spec.paused) return undefined;
  const progressing = (reason: string, message: string): Condition => ({
    type: 'Progressing',
    status: 'True',
    reason,
    message,
    lastUpdateTime: nowText,
  });
  if (input.createdNewRS) return progressing('NewReplicaSetCreated', `Created new replica set "${name}"`);
  if (f.complete) {
    // The update time moves only when the reason changes (a complete rollout stays put).
    const fresh = current?.reason !== 'NewReplicaSetAvailable';
    return {
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${name}" has successfully progressed.`,
      ...(fresh ? { lastUpdateTime: nowText } : {}),
    };
  }
  if (f.progressed) return progressing('ReplicaSetUpdated', `ReplicaSet "${name}" is progressing.`);
  if (!current) return progressing('FoundNewReplicaSet', `Found new replica set "${name}"`);
  const deadline = d.spec.progressDeadlineSeconds;
  const overdue =
    deadline !== undefined &&
    current.reason !== 'ProgressDeadlineExceeded' &&
    (input.now - input.lastProgressMs) * input.timeScale > deadline * 1000;
  if (!overdue) return undefined;
  return {
    type: 'Progressing',
    status: 'False',
    reason: 'ProgressDeadlineExceeded',
    message: `ReplicaSet "${name}" has timed out progressing.`,
    lastUpdateTime: nowText,
  };
}

/**
 * checkPausedConditions (pkg/controller/deployment/sync.go), run on every sync before
 * the paused check: a paused Deployment's Progressing becomes Unknown, reason
 * DeploymentPaused ("Deployment is paused"), and a resumed one's DeploymentResumed; a
 * timed-out one keeps ProgressDeadlineExceeded. Only with a progress deadline (apps/v1
 * defaults it to 600 s).
 */
function pausedConditions(conditions: Condition[], d: Deployment, now: string): Condition[] {
  if (d.spec.progressDeadlineSeconds === undefined) return conditions;
  const current = conditions.find((c) => c.type === 'Progressing');
  if (current?.reason === 'ProgressDeadlineExceeded') return conditions;
  const paused = current?.reason === 'DeploymentPaused';
  if (d.spec.paused && !paused) {
    return setCondition(
      conditions,
      { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' },
      now,
    );
  }
  if (!d.spec.paused && paused) {
    return setCondition(
      conditions,
      {
        type: 'Progressing',
        status: 'Unknown',
        reason: 'DeploymentResumed',
        message: 'Deployment is resumed',
      },
      now,
    );
  }
  return conditions;
}

/**
 * syncRolloutStatus (pkg/controller/deployment/progress.go): the ReplicaFailure
 * condition of the new ReplicaSet, else of any old one (getReplicaFailures), is copied
 * to the Deployment with both times its lastTransitionTime
 * (util.ReplicaSetToDeploymentCondition), replacing one of another status or reason; with
 * none left on the ReplicaSets the Deployment's goes too.
 */
function withReplicaFailure(
  conditions: Condition[],
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): Condition[] {
  const failureOf = (rs: ReplicaSet | undefined): Condition | undefined =>
    (rs?.status as { conditions?: Condition[] } | undefined)?.conditions?.find(
      (c) => c.type === 'ReplicaFailure',
    );
  const failure = failureOf(newRS) ?? oldRSs.map(failureOf).find((c) => c !== undefined);
  const current = conditions.find((c) => c.type === 'ReplicaFailure');
  if (!failure) return current ? conditions.filter((c) => c !== current) : conditions;
  if (current && current.status === failure.status && current.reason === failure.reason) return conditions;
  const copied: Condition = {
    type: 'ReplicaFailure',
    status: failure.status,
    ...(failure.lastTransitionTime
      ? { lastUpdateTime: failure.lastTransitionTime, lastTransitionTime: failure.lastTransitionTime }
      : {}),
    ...(failure.reason ? { reason: failure.reason } : {}),
    ...(failure.message ? { message: failure.message } : {}),
  };
  return [...conditions.filter((c) => c !== current), copied];
}
