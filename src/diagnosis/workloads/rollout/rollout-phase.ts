/**
 * Where an Argo Rollout stands, in its controller's own terms: the phase and message
 * it writes (utils/rollout/rolloututil.go GetRolloutPhase: "Progressing - waiting for
 * rollout spec update to be observed" until observedGeneration catches up, then
 * status.phase and status.message as rollout/sync.go persistRolloutStatus wrote them),
 * printed the way `kubectl argo rollouts status` prints them ("<phase> - <message>",
 * done at Healthy or Degraded: pkg/kubectl-argo-rollouts/cmd/status/status.go). The
 * phase is Degraded for InvalidSpec, RolloutAborted and ProgressDeadlineExceeded
 * (rolloututil.go CalculateRolloutPhase), Paused for spec.paused or a pause condition
 * (a canary pause step: CanaryPauseStep; blue-green before promotion: BlueGreenPause;
 * an inconclusive analysis), else Progressing or Healthy. Pure.
 */
import { pauseSeconds } from './pause-duration.js';
import type { ArgoRollout } from '../../k8s-argo.js';
import type { RolloutObjects, WorkloadSnapshot } from '../../snapshot/types.js';
import type { RolloutHalt, RolloutVerdict, StalledRollout } from '../../workload-kind.js';
import { isTerminal, isTerminating } from '../../base/pods.js';
import { podsOfReplicaSet } from '../deployment/replica-sets.js';
import { replicaSetsStall } from '../deployment/deployment-status.js';
import { classifyRollout, HASH_LABEL, observed } from './replica-sets.js';
import { desiredReplicas } from './rollout-strategy.js';

interface RolloutPhase {
  phase: 'Progressing' | 'Paused' | 'Degraded' | 'Healthy' | string;
  message: string;
}

/**
 * GetRolloutPhase, from what the controller wrote: a promote clears the pause conditions
 * and leaves status.controllerPause set until the controller reconciles (IsUnpausing),
 * while status.phase still says Paused.
 */
function phaseOf(rollout: ArgoRollout): RolloutPhase {
  if (!observed(rollout))
    return { phase: 'Progressing', message: 'waiting for rollout spec update to be observed' };
  if (unpausing(rollout)) return { phase: 'Progressing', message: 'waiting for rollout to unpause' };
  if (rollout.spec.workloadRef && !workloadGenerationObserved(rollout))
    return {
      phase: 'Progressing',
      message: 'waiting for rollout spec update to be observed for the reference workload',
    };
  return { phase: rollout.status?.phase ?? 'Progressing', message: rollout.status?.message ?? '' };
}

/**
 * isWorkloadGenerationObserved: the controller records the referenced workload's
 * generation in the annotation rollout.argoproj.io/workload-generation and the one it
 * acted on in status.workloadObservedGeneration; either missing or unreadable counts as
 * observed.
 */
function workloadGenerationObserved(rollout: ArgoRollout): boolean {
  const wanted = rollout.metadata.annotations?.['rollout.argoproj.io/workload-generation'];
  const seen = rollout.status?.workloadObservedGeneration;
  if (wanted === undefined || seen === undefined || !/^[+-]?\d+$/.test(seen)) return true;
  return Number(seen) === Number(wanted);
}

/** IsUnpausing: promoted (no pause condition left) but not yet reconciled. */
function unpausing(rollout: ArgoRollout): boolean {
  return rollout.status?.controllerPause === true && (rollout.status.pauseConditions ?? []).length === 0;
}

/** "Degraded - ProgressDeadlineExceeded: ReplicaSet "x" has timed out progressing." */
function phaseLine(rollout: ArgoRollout): string {
  const { phase, message } = phaseOf(rollout);
  return message ? `${phase} - ${message}` : phase;
}

/**
 * Why the controller does not count progressDeadlineSeconds now, or undefined when it
 * does: not while the Rollout is paused (spec.paused or a pause condition) nor at an
 * analysis or experiment step (rollout/sync.go calculateRolloutConditions returns
 * before its timeout check; isIndefiniteStep). `kubectl argo rollouts status` then
 * waits with no end, as it stops only on Healthy or Degraded.
 */
function deadlineHeld(rollout: ArgoRollout): 'paused' | 'indefiniteStep' | undefined {
  if (rollout.spec.paused === true || (rollout.status?.pauseConditions ?? []).length > 0) return 'paused';
  const index = rollout.status?.currentStepIndex;
  const step = index === undefined ? undefined : rollout.spec.strategy?.canary?.steps?.[index];
  if (step && (step.analysis !== undefined || step.experiment !== undefined)) return 'indefiniteStep';
  return undefined;
}

/** What `kubectl argo rollouts status` prints meanwhile, and until when. */
export function statusWatchLine(rollout: ArgoRollout): string {
  const line = `Meanwhile \`kubectl argo rollouts status\` prints "${phaseLine(rollout)}"`;
  const held = deadlineHeld(rollout);
  if (held === 'paused')
    return `${line} and waits with no end: the controller does not count progressDeadlineSeconds while the Rollout is paused.`;
  if (held === 'indefiniteStep')
    return `${line} and waits with no end: the controller does not count progressDeadlineSeconds at an analysis or experiment step.`;
  return `${line} until progressDeadlineSeconds (${rollout.spec.progressDeadlineSeconds ?? 600} s) pass, then Degraded.`;
}

function generationOf(rollout: ArgoRollout): number {
  const seen = Number(rollout.status?.observedGeneration);
  return Number.isFinite(seen) ? seen : 0;
}

export function rolloutProgress(rollout: ArgoRollout, sinceGeneration = 0): RolloutVerdict {
  const status = rollout.status ?? {};
  const progress = {
    generation: rollout.metadata.generation ?? 0,
    observedGeneration: generationOf(rollout),
    replicas: desiredReplicas(rollout),
    updated: status.updatedReplicas ?? 0,
    ready: status.readyReplicas ?? 0,
    available: status.availableReplicas ?? 0,
    statusRead: rollout.status !== undefined,
    message: phaseLine(rollout),
  };
  if (generationOf(rollout) < sinceGeneration) {
    return {
      state: 'progressing',
      progress: { ...progress, message: 'Progressing - waiting for rollout spec update to be observed' },
    };
  }
  const { phase, message } = phaseOf(rollout);
  if (phase === 'Healthy') return { state: 'complete', progress };
  if (phase === 'Degraded') return { state: 'failed', progress, reason: message || 'Degraded' };
  if (phase === 'Paused') {
    const step = pauseStep(rollout);
    const { endsAt } = timedPause(rollout, rollout.status?.pauseConditions?.[0]);
    return {
      state: 'paused',
      progress,
      reason: message || 'paused',
      ...(step ? { step } : {}),
      ...(endsAt ? { resumesAt: endsAt } : {}),
    };
  }
  return { state: 'progressing', progress };
}

/**
 * The canary pause step a Rollout stands at (1-based), when a pause step of its strategy
 * paused it (pauseConditions' CanaryPauseStep, not spec.paused): the update went as far
 * as the steps let it and waits for a promotion.
 */
function pauseStep(rollout: ArgoRollout): number | undefined {
  const index = rollout.status?.currentStepIndex;
  const steps = rollout.spec.strategy?.canary?.steps ?? [];
  const byStep = rollout.status?.pauseConditions?.some((c) => c.reason === 'CanaryPauseStep') === true;
  if (!byStep || rollout.spec.paused === true || index === undefined || steps[index]?.pause === undefined)
    return undefined;
  return index + 1;
}

/** The Rollout's counts in a line, and whether they say it is done (phase Healthy). */
export function statusSummary(rollout: ArgoRollout): { text: string; complete: boolean } {
  const replicas = desiredReplicas(rollout);
  const status = rollout.status ?? {};
  const { phase, message } = phaseOf(rollout);
  const parts = [
    `${status.updatedReplicas ?? 0} of ${replicas} replicas updated`,
    `${status.availableReplicas ?? 0} available`,
  ];
  if ((status.replicas ?? replicas) !== replicas) parts.push(`${status.replicas ?? 0} pods in all`);
  const complete = phase === 'Healthy';
  return { text: `${parts.join(', ')}; phase ${phase}${message ? ` (${message})` : ''}`, complete };
}

/** Why the Rollout is not in its steady state (an update, a pause, a scale), or undefined. */
export function rolloutUnderWay(
  snapshot: RolloutObjects & Pick<WorkloadSnapshot, 'pods'>,
): string | undefined {
  const { rollout } = snapshot;
  const { phase, message } = phaseOf(rollout);
  if (phase !== 'Healthy') return `the Rollout is ${phase}${message ? ` (${message})` : ''}`;
  const replicas = desiredReplicas(rollout);
  const { current, old } = classifyRollout(snapshot);
  if (!current) return 'no ReplicaSet carries the current template yet';
  for (const rs of old) {
    const live = podsOfReplicaSet(snapshot, rs, HASH_LABEL).filter((p) => !isTerminal(p));
    if ((rs.spec.replicas ?? 0) > 0 || live.length > 0)
      return `ReplicaSet ${rs.metadata.name ?? ''} still has pods`;
  }
  if ((current.spec.replicas ?? replicas) !== replicas) {
    return `the current ReplicaSet is being scaled to ${current.spec.replicas ?? 0} of ${replicas}`;
  }
  const terminating = snapshot.pods.find(isTerminating);
  if (terminating) return `pod ${terminating.metadata.name ?? ''} is terminating`;
  return undefined;
}

/**
 * ProgressDeadlineExceeded (utils/conditions RolloutTimedOut, after
 * spec.progressDeadlineSeconds, 600 by default): Progressing=False and phase Degraded;
 * the Rollout aborts too only with spec.progressDeadlineAbort.
 */
export function stalledRollout(snapshot: RolloutObjects): StalledRollout | undefined {
  const { rollout } = snapshot;
  const deadline = rollout.spec.progressDeadlineSeconds ?? 600;
  const stall = replicaSetsStall(
    rollout.status?.conditions,
    snapshot.replicaSets,
    () => classifyRollout(snapshot).current,
    desiredReplicas(rollout),
    deadline,
  );
  if (!stall) return undefined;
  return {
    ...stall,
    explanation:
      `The Argo Rollouts controller marks the Rollout Degraded (Progressing=False, ProgressDeadlineExceeded) when no ` +
      `new pod became available for progressDeadlineSeconds (${deadline}s). ` +
      (rollout.spec.progressDeadlineAbort
        ? 'With progressDeadlineAbort it aborts in the same reconcile (rollout/sync.go evaluateProgressDeadlineAbort), after which the Rollout reads aborted, not timed out: the canary is scaled away and the stable pods serve. '
        : 'It does not abort (progressDeadlineAbort is off): the stable pods keep serving and the stuck new ones stay. ') +
      '`kubectl argo rollouts abort` goes back to the stable pods.',
  };
}

/**
 * status.abort, as the controller acts on it (pauseContext.IsAborted): the update does
 * not go on; the canary or preview goes to 0 after abortScaleDownDelaySeconds (never
 * with 0) and the stable pods serve. A template changed since is a new update
 * (PodTemplateOrStepsChanged resets the abort): not aborted once the hash moved on.
 */
export function rolloutAborted(rollout: ArgoRollout): boolean {
  return rollout.status?.abort === true && observed(rollout);
}

/** Degraded (aborted, invalid spec) or Paused, as the controller wrote it; undefined otherwise. */
export function rolloutHalt(rollout: ArgoRollout): RolloutHalt | undefined {
  // spec.paused is the person's word, read before the controller writes it back: set
  // after the last reconcile (status not yet Paused, or the new generation not yet
  // observed) it already holds the update, and CalculateRolloutPhase makes it Paused,
  // "manually paused", once nothing degrades it.
  const byHand = rollout.spec.paused === true;
  if (!observed(rollout) && !byHand) return undefined;
  const read = phaseOf(rollout);
  const { phase, message } =
    byHand && read.phase !== 'Degraded' ? { phase: 'Paused', message: 'manually paused' } : read;
  const status = rollout.status ?? {};
  const steps = rollout.spec.strategy?.canary?.steps;
  const stepAt =
    steps && steps.length > 0 && status.currentStepIndex !== undefined
      ? { at: Math.min(status.currentStepIndex + 1, steps.length), of: steps.length }
      : undefined;
  const step = stepAt ? `step ${stepAt.at} of ${stepAt.of}` : undefined;
  if (phase === 'Degraded') {
    // CalculateRolloutPhase: the first condition, in the order written, that degrades it.
    const c = status.conditions?.find(
      (x) =>
        x.type === 'InvalidSpec' || x.reason === 'RolloutAborted' || x.reason === 'ProgressDeadlineExceeded',
    );
    // A passed deadline first (or nothing that says why): stalledRollout says it.
    if (!c || (c.type !== 'InvalidSpec' && c.reason === 'ProgressDeadlineExceeded')) return undefined;
    return {
      code: 'RolloutDegraded',
      phase,
      message,
      reason: c.type === 'InvalidSpec' ? 'InvalidSpec' : (c.reason ?? c.type),
      condition: conditionOf(c),
      ...((status.abortedAt ?? c.lastTransitionTime)
        ? { since: status.abortedAt ?? c.lastTransitionTime }
        : {}),
      ...(step ? { step } : {}),
    };
  }
  if (phase === 'Paused') {
    const pause = status.pauseConditions?.[0];
    // The Paused condition's reason is always RolloutPaused; the pause's own reason is in pauseConditions.
    const paused = status.conditions?.find((x) => x.type === 'Paused');
    return {
      code: 'RolloutPaused',
      phase,
      message,
      reason: rollout.spec.paused ? 'spec.paused' : (pause?.reason ?? message),
      ...(paused ? { condition: conditionOf(paused) } : {}),
      ...(pause?.startTime ? { since: pause.startTime } : {}),
      ...(step ? { step } : {}),
      ...(stepAt ? { stepAt } : {}),
      ...timedPause(rollout, pause),
    };
  }
  return undefined;
}

/**
 * A canary pause step with a duration ends by itself: the controller goes on once
 * the pause condition's `startTime` plus the duration has passed (the canary strategy's
 * documentation; RolloutPause.DurationSeconds reads the duration). So does a blue-green
 * pause under `autoPromotionSeconds`: reconcileBlueGreenPause removes it once its
 * `startTime` plus those seconds has passed, and the preview is promoted, unless
 * `autoPromotionEnabled` is false (pause.go CompletedBlueGreenPause reads the seconds
 * only while auto-promotion is on; off, a person promotes).
 * Not a pause by hand (spec.paused) or of another reason, which wait for a person; nor a
 * timed one beside a pause of another reason (an inconclusive analysis): the controller
 * only syncs replicas while that one stands (controller.go syncReplicasOnly).
 */
function timedPause(
  rollout: ArgoRollout,
  pause: { reason: string; startTime?: string } | undefined,
): Pick<RolloutHalt, 'endsAt' | 'lasts'> {
  if (rollout.spec.paused || !pause?.startTime) return {};
  if ((rollout.status?.pauseConditions ?? []).some((c) => c.reason !== pause.reason)) return {};
  const index = rollout.status?.currentStepIndex;
  const seconds =
    pause.reason === 'CanaryPauseStep'
      ? pauseSeconds(index === undefined ? undefined : rollout.spec.strategy?.canary?.steps?.[index])
      : pause.reason === 'BlueGreenPause' && rollout.spec.strategy?.blueGreen?.autoPromotionEnabled !== false
        ? rollout.spec.strategy?.blueGreen?.autoPromotionSeconds
        : undefined;
  const start = Date.parse(pause.startTime);
  if (seconds === undefined || Number.isNaN(start)) return {};
  return { endsAt: new Date(start + seconds * 1000).toISOString(), lasts: seconds };
}

function conditionOf(c: {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}): NonNullable<RolloutHalt['condition']> {
  return {
    type: c.type,
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
  };
}
