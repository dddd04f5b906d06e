/**
 * What the engine keeps of another Argo Rollout, a neighbour of the workload diagnosed
 * (snapshot `neighbourRollouts`; forward/job-wait.ts): whether its update goes on to its
 * end with nobody acting, and whether it is being deleted. At its end the controller
 * scales every older ReplicaSet to 0 (a canary's stable once promoted, a blue-green's
 * active once the preview is promoted, after scaleDownDelaySeconds where it applies), and
 * their pods give their room back. It stops short where a person must act or an analysis
 * may abort it (an aborted update keeps the stable pods and removes the new ones).
 */
import type { ArgoRollout } from '../../k8s-argo.js';
import type { NeighbourRollout } from '../../base/neighbour-deployments.js';
import { pauseSeconds } from './pause-duration.js';
import { rolloutAborted, rolloutHalt } from './rollout-phase.js';
import { desiredReplicas } from './rollout-strategy.js';

/** "namespace/name", whether its update ends by itself, its replicas and kept hash, and whether it is being deleted. */
export function neighbourRolloutEntry(rollout: ArgoRollout, namespace: string): NeighbourRollout {
  return {
    name: `${rollout.metadata.namespace ?? namespace}/${rollout.metadata.name ?? ''}`,
    endsByItself: endsByItself(rollout),
    replicas: desiredReplicas(rollout),
    ...(rollout.status?.currentPodHash ? { currentPodHash: rollout.status.currentPodHash } : {}),
    ...(rollout.metadata.deletionTimestamp ? { deleting: true as const } : {}),
  };
}

/** Canary steps that go on by themselves (a timed pause is judged apart: pauseSeconds). */
const STEPS_THAT_GO_ON = new Set(['setWeight', 'setCanaryScale', 'setHeaderRoute', 'setMirrorRoute']);

/**
 * Whether the update reaches its end with nobody acting: not paused by hand, aborted or
 * degraded; no pause that waits for a person (a canary pause step without a duration,
 * a blue-green preview with autoPromotionEnabled false, not yet promoted); no analysis
 * or experiment ahead (one that fails aborts it). A canary's steps are read from the
 * current one on (none left after `promote --full`).
 */
function endsByItself(rollout: ArgoRollout): boolean {
  if (rollout.spec.paused === true || rolloutAborted(rollout)) return false;
  const halt = rolloutHalt(rollout);
  if (halt?.code === 'RolloutDegraded') return false;
  if (halt?.code === 'RolloutPaused' && halt.endsAt === undefined) return false;
  const { canary, blueGreen } = rollout.spec.strategy ?? {};
  if (canary) {
    if (canary.analysis !== undefined) return false;
    const steps = canary.steps ?? [];
    const from = rollout.status?.promoteFull ? steps.length : (rollout.status?.currentStepIndex ?? 0);
    return steps.slice(from).every(goesOn);
  }
  if (blueGreen) {
    if (blueGreen.prePromotionAnalysis !== undefined || blueGreen.postPromotionAnalysis !== undefined)
      return false;
    const { currentPodHash, blueGreen: selectors } = rollout.status ?? {};
    const promoted = currentPodHash !== undefined && selectors?.activeSelector === currentPodHash;
    return promoted || blueGreen.autoPromotionEnabled !== false;
  }
  return false;
}

/** A step with one known action that needs nobody: a timed pause, a weight, a scale, a route. */
function goesOn(step: Record<string, unknown>): boolean {
  const keys = Object.keys(step);
  if (keys.length !== 1) return false;
  const [key = ''] = keys;
  return key === 'pause' ? pauseSeconds(step) !== undefined : STEPS_THAT_GO_ON.has(key);
}
