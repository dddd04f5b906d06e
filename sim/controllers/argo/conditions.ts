/**
 * Rollout conditions and phase, transcribed from argoproj/argo-rollouts
 * utils/conditions/conditions.go (reasons and messages, SetRolloutCondition,
 * RolloutProgressing, RolloutHealthy, RolloutCompleted, RolloutTimedOut),
 * rollout/sync.go calculateRolloutConditions, rollout/pause.go CalculatePauseStatus and
 * utils/rollout/rolloututil.go CalculateRolloutPhase.
 */
import { nowRfc3339 } from '../../defaults.js';
import { replicasOf, currentStep, stepsOf } from './canary-math.js';
import { event, hashOf, isAborted, revisionOf, type RolloutContext } from './context.js';
import type { Rollout, RolloutCondition, RolloutStatus, RS } from './types.js';

export const MSG = {
  available: 'Rollout has minimum availability',
  notAvailable: 'Rollout does not have minimum availability',
  healthy: 'Rollout is healthy',
  notHealthy: 'Rollout is not healthy',
  paused: 'Rollout is paused',
  resumed: 'Rollout is resumed',
  retry: 'Retrying Rollout after abort',
} as const;

export function getCondition(status: RolloutStatus, type: string): RolloutCondition | undefined {
  return status.conditions?.find((c) => c.type === type);
}

export function newCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
): RolloutCondition {
  const now = nowRfc3339();
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/** SetRolloutCondition: no change for the same status and reason; the transition time kept for the same status. */
export function setCondition(status: RolloutStatus, c: RolloutCondition): boolean {
  const current = getCondition(status, c.type);
  if (current && current.status === c.status && current.reason === c.reason) return false;
  const next =
    current && current.status === c.status ? { ...c, lastTransitionTime: current.lastTransitionTime } : c;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), next];
  return true;
}

export function removeCondition(status: RolloutStatus, type: string): void {
  const kept = (status.conditions ?? []).filter((c) => c.type !== type);
  if (kept.length > 0) status.conditions = kept;
  else delete status.conditions;
}

/** RolloutProgressing: more updated, fewer old, more ready or available pods, or a strategy step. */
function progressing(ro: Rollout, s: RolloutStatus): boolean {
  const old = ro.status ?? {};
  let strategy = false;
  if (ro.spec.strategy?.blueGreen) {
    strategy =
      (old.blueGreen?.activeSelector ?? '') !== (s.blueGreen?.activeSelector ?? '') ||
      (old.blueGreen?.previewSelector ?? '') !== (s.blueGreen?.previewSelector ?? '');
  }
  if (ro.spec.strategy?.canary) {
    const stepMoved =
      s.currentStepIndex !== undefined &&
      old.currentStepIndex !== undefined &&
      s.currentStepIndex !== old.currentStepIndex;
    strategy =
      (s.stableRS ?? '') !== (old.stableRS ?? '') ||
      stepMoved ||
      (s.currentStepHash ?? '') !== (old.currentStepHash ?? '');
  }
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) !== (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0) ||
    strategy
  );
}

/** RolloutHealthy: every replica updated and available, the spec observed, and the strategy done. */
export function healthy(ro: Rollout, s: RolloutStatus): boolean {
  const replicas = replicasOf(ro);
  let done = true;
  const bg = ro.spec.strategy?.blueGreen;
  if (bg) {
    done =
      s.blueGreen?.activeSelector === s.currentPodHash &&
      (!bg.previewService || s.blueGreen?.previewSelector === s.currentPodHash);
  }
  if (ro.spec.strategy?.canary) {
    const count = stepsOf(ro).length;
    const allSteps = count === 0 || s.currentStepIndex === undefined || s.currentStepIndex === count;
    done = allSteps && !!s.stableRS && s.stableRS === s.currentPodHash && (s.replicas ?? 0) === replicas;
  }
  return (
    (s.updatedReplicas ?? 0) === replicas &&
    (s.availableReplicas ?? 0) === replicas &&
    ro.status?.observedGeneration === String(ro.metadata.generation ?? 1) &&
    done
  );
}

export function completed(s: RolloutStatus): boolean {
  return !!s.stableRS && s.stableRS === s.currentPodHash;
}

/** isIndefiniteStep: a pause, analysis or experiment step, or a blue-green Paused condition, stops the clock. */
function indefiniteStep(ro: Rollout): boolean {
  const { step } = currentStep(ro);
  if (step && (step.pause || step.analysis || step.experiment)) return true;
  return getCondition(ro.status ?? {}, 'Paused')?.status === 'True';
}

/** RolloutTimedOut: no progress since the Progressing condition's lastUpdateTime for progressDeadlineSeconds. */
function timedOut(ctx: RolloutContext, s: RolloutStatus): boolean {
  const c = getCondition(s, 'Progressing');
  if (!c || c.reason === 'RolloutAborted' || c.reason === 'RolloutPaused') return false;
  if (c.reason === 'ProgressDeadlineExceeded') return true;
  const deadline = ctx.ro.spec.progressDeadlineSeconds ?? 600;
  const since = ctx.clock.get(`progress/${c.lastUpdateTime}`) ?? Date.parse(c.lastUpdateTime);
  return ((ctx.now - since) * ctx.timeScale) / 1000 > deadline;
}

function replicaFailure(ctx: RolloutContext): RolloutCondition | undefined {
  const failureOf = (rs: RS | undefined): RolloutCondition | undefined => {
    const c = (
      rs?.status as
        | {
            conditions?: {
              type: string;
              status: string;
              reason?: string;
              message?: string;
              lastTransitionTime?: string;
            }[];
          }
        | undefined
    )?.conditions?.find((x) => x.type === 'ReplicaFailure');
    if (!c) return undefined;
    const time = c.lastTransitionTime ?? nowRfc3339();
    return {
      type: 'ReplicaFailure',
      status: c.status,
      lastUpdateTime: time,
      lastTransitionTime: time,
      reason: c.reason ?? '',
      message: c.message ?? '',
    };
  };
  return failureOf(ctx.newRS) ?? ctx.allRSs.map(failureOf).find((c) => c !== undefined);
}

function progressCondition(ctx: RolloutContext, s: RolloutStatus, becameUnhealthy: boolean): void {
  const { ro } = ctx;
  const rsName = ctx.newRS?.metadata.name ?? '';
  if (healthy(ro, s)) {
    setCondition(
      s,
      newCondition(
        'Progressing',
        'True',
        'NewReplicaSetAvailable',
        `ReplicaSet "${rsName}" has successfully progressed.`,
      ),
    );
  } else if (progressing(ro, s) || becameUnhealthy) {
    const notAvailable = s.stableRS === s.currentPodHash && becameUnhealthy;
    const c = notAvailable
      ? newCondition('Progressing', 'True', 'ReplicaSetNotAvailable', MSG.notAvailable)
      : newCondition(
          'Progressing',
          'True',
          'ReplicaSetUpdated',
          ctx.newRS
            ? `ReplicaSet "${rsName}" is progressing.`
            : `Rollout "${ro.metadata.name}" is progressing.`,
        );
    const current = getCondition(ro.status ?? {}, 'Progressing');
    if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
    ctx.clock.set(`progress/${c.lastUpdateTime}`, ctx.now);
    removeCondition(s, 'Progressing');
    setCondition(s, c);
  } else {
    const waitingForScaleDown = ctx.otherRSs.some(
      (rs) => rs.metadata.annotations?.['scale-down-deadline'] !== undefined,
    );
    if (!indefiniteStep(ro) && !waitingForScaleDown && timedOut(ctx, s)) {
      const message = ctx.newRS
        ? `ReplicaSet "${rsName}" has timed out progressing.`
        : `Rollout "${ro.metadata.name}" has timed out progressing.`;
      setCondition(s, newCondition('Progressing', 'False', 'ProgressDeadlineExceeded', message));
    }
  }
}

/** calculateRolloutConditions, in its order: Healthy, Progressing, Available, ReplicaFailure, Completed. */
export function calculateConditions(ctx: RolloutContext, s: RolloutStatus): void {
  const { ro } = ctx;
  const paused = (s.pauseConditions ?? []).length > 0 || ro.spec.paused === true;
  const aborted = isAborted(ctx);
  let becameUnhealthy = false;
  if (!paused && healthy(ro, s))
    setCondition(s, newCondition('Healthy', 'True', 'RolloutHealthy', MSG.healthy));
  else if (getCondition(ro.status ?? {}, 'Healthy'))
    becameUnhealthy = setCondition(s, newCondition('Healthy', 'False', 'RolloutHealthy', MSG.notHealthy));
  const revision = revisionOf(ctx.obj);
  if (aborted) {
    const message = `Rollout aborted update to revision ${revision}`;
    if (setCondition(s, newCondition('Progressing', 'False', 'RolloutAborted', message)))
      event(ctx, 'Warning', 'RolloutAborted', message);
  } else progressCondition(ctx, s, becameUnhealthy);
  const activeRS = ctx.allRSs.find((rs) => hashOf(rs) !== '' && hashOf(rs) === s.blueGreen?.activeSelector);
  const availableTotal = ctx.allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  const isAvailable = ro.spec.strategy?.blueGreen
    ? activeRS !== undefined && saturated(ro, activeRS)
    : availableTotal >= replicasOf(ro);
  setCondition(
    s,
    isAvailable
      ? newCondition('Available', 'True', 'AvailableReason', MSG.available)
      : newCondition('Available', 'False', 'AvailableReason', MSG.notAvailable),
  );
  const failure = replicaFailure(ctx);
  if (failure) setCondition(s, failure);
  else removeCondition(s, 'ReplicaFailure');
  if (completed(s))
    setCondition(s, newCondition('Completed', 'True', 'RolloutCompleted', 'RolloutCompleted'));
  else if (setCondition(s, newCondition('Completed', 'False', 'RolloutCompleted', 'RolloutCompleted')))
    event(
      ctx,
      'Normal',
      'RolloutNotCompleted',
      `Rollout not completed, started update to revision ${revision} (${s.currentPodHash ?? ''})`,
    );
}

/** annotations.IsSaturated: the ReplicaSet has, believes it should have, and runs available, all replicas. */
export function saturated(ro: Rollout, rs: RS | undefined): boolean {
  if (!rs) return false;
  const replicas = replicasOf(ro);
  return (
    (rs.spec.replicas ?? 0) === replicas &&
    Number(rs.metadata.annotations?.['rollout.argoproj.io/desired-replicas']) === replicas &&
    (rs.status?.availableReplicas ?? 0) === replicas
  );
}

/** CalculatePauseStatus: abort (kept with its first time), else the pause conditions added and removed. */
export function calculatePauseStatus(ctx: RolloutContext, s: RolloutStatus): void {
  const old = ctx.ro.status ?? {};
  const p = ctx.pause;
  delete s.pauseConditions;
  delete s.controllerPause;
  if (p.addAbort || (!p.removeAbort && old.abort)) {
    s.abort = true;
    s.abortedAt = old.abortedAt ?? nowRfc3339();
    return;
  }
  delete s.abort;
  delete s.abortedAt;
  if (p.clear) return;
  let controllerPause = old.controllerPause ?? false;
  const kept = (old.pauseConditions ?? []).filter((c) => !p.remove.includes(c.reason));
  for (const reason of p.add) {
    if ((old.pauseConditions ?? []).some((c) => c.reason === reason)) continue;
    const startTime = nowRfc3339();
    ctx.clock.set(`pause/${reason}/${startTime}`, ctx.now);
    kept.push({ reason, startTime });
    controllerPause = true;
  }
  if (kept.length === 0) return;
  s.pauseConditions = kept;
  if (controllerPause) s.controllerPause = true;
}

/** CalculateRolloutPhase: phase and message from spec and status. */
export function rolloutPhase(ro: Rollout, s: RolloutStatus): { phase: string; message: string } {
  for (const c of s.conditions ?? []) {
    if (c.type === 'InvalidSpec') return { phase: 'Degraded', message: `InvalidSpec: ${c.message}` };
    if (c.reason === 'RolloutAborted' || c.reason === 'ProgressDeadlineExceeded')
      return { phase: 'Degraded', message: `${c.reason}: ${c.message}` };
  }
  if (ro.spec.paused) return { phase: 'Paused', message: 'manually paused' };
  const firstPause = s.pauseConditions?.[0];
  if (firstPause) return { phase: 'Paused', message: firstPause.reason };
  const progressingWith = (message: string) => ({ phase: 'Progressing', message });
  if ((s.updatedReplicas ?? 0) < replicasOf(ro)) return progressingWith('more replicas need to be updated');
  if ((s.availableReplicas ?? 0) < (s.updatedReplicas ?? 0))
    return progressingWith('updated replicas are still becoming available');
  const promoted = !!s.stableRS && s.stableRS === s.currentPodHash;
  if (ro.spec.strategy?.blueGreen) {
    if (!s.blueGreen?.activeSelector || s.blueGreen.activeSelector !== s.currentPodHash)
      return progressingWith('active service cutover pending');
    if (!promoted) return progressingWith('waiting for post-promotion verification to complete');
  } else if (ro.spec.strategy?.canary) {
    if ((s.replicas ?? 0) > (s.updatedReplicas ?? 0))
      return progressingWith('old replicas are pending termination');
    if (!promoted) return progressingWith('waiting for all steps to complete');
  }
  return { phase: 'Healthy', message: '' };
}
