/**
 * The canary (basic, and with traffic routing: traffic-routed.ts), transcribed from argoproj/argo-rollouts
 * rollout/canary.go: rolloutCanary (a changed template or step list first resets the
 * status), reconcileCanaryReplicaSets (stable, then new, then the others, stopping at
 * the first that scaled), reconcileCanaryPause, scaleDownOldReplicaSetsForCanary with
 * cleanupUnhealthyReplicas (rollout/replicaset.go), completedCurrentCanaryStep and
 * syncRolloutStatusCanary. Steps the simulator does not run (analysis, experiment,
 * plugins) never complete: the Rollout waits there.
 */
import {
  basicCanaryCounts,
  currentStep,
  maxUnavailable,
  pauseSeconds,
  replicasOf,
  stableExists,
  stepString,
  stepsOf,
} from './canary-math.js';
import {
  event,
  hashOf,
  isAborted,
  pauseCondition,
  pruneHistory,
  revisionOf,
  scaleRS,
  setScaleDownDeadline,
  simSecondsSince,
  syncRevision,
  type RolloutContext,
} from './context.js';
import { baseStatus, isFastRollback, persistStatus, promoteStable, resetStatus } from './status.js';
import { abortedCanarySize, isTrafficRouted, trafficRoutedCounts } from './traffic-routed.js';
import type { RolloutStatus, RS } from './types.js';

const stepHashOf = (ctx: RolloutContext): string => {
  // conditions.ComputeStepHash: FNV-32a of the steps, safe-encoded (the simulator hashes its canonical JSON).
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(JSON.stringify(stepsOf(ctx.ro)), 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return [...String(hash)].map((ch) => alphabet[ch.charCodeAt(0) % alphabet.length] ?? 'b').join('');
};

/** PodTemplateOrStepsChanged: no step hash recorded yet, another step list, or another pod template. */
function templateOrStepsChanged(ctx: RolloutContext): boolean {
  const s = ctx.ro.status ?? {};
  if (!s.currentStepHash || s.currentStepHash !== stepHashOf(ctx)) return true;
  return !!s.currentPodHash && s.currentPodHash !== (ctx.newRS ? hashOf(ctx.newRS) : '');
}

const spec = (rs: RS | undefined): number => rs?.spec.replicas ?? 0;

/** [canary, stable] for this reconcile: the router's split, or the basic canary's approximation. */
function countsFor(ctx: RolloutContext): [number, number] {
  return isTrafficRouted(ctx.ro)
    ? trafficRoutedCounts(ctx.ro)
    : basicCanaryCounts(ctx.ro, ctx.newRS, ctx.stableRS, ctx.otherRSs);
}

/** cleanupUnhealthyReplicas then the min-available budget (scaleDownOldReplicaSetsForCanary). */
function scaleDownOthers(ctx: RolloutContext, active: RS[]): boolean {
  let total = 0;
  const byAge = [...active].sort((a, b) =>
    (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
  );
  for (const rs of byAge) {
    const ready = rs.status?.availableReplicas ?? 0;
    if (spec(rs) === 0 || spec(rs) === ready) continue;
    scaleRS(ctx, rs, ready);
    total += spec(rs) - ready;
  }
  const availableNow = ctx.allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  let budget = availableNow - (replicasOf(ctx.ro) - maxUnavailable(ctx.ro));
  if (budget <= 0) return total > 0;
  const current = (rs: RS): RS => ctx.allRSs.find((r) => r.metadata.name === rs.metadata.name) ?? rs;
  for (const rs of [...active].map(current).sort((a, b) => revisionOf(b) - revisionOf(a))) {
    if (budget <= 0) break;
    if (spec(rs) === 0) continue;
    const to = spec(rs) > budget ? spec(rs) - budget : 0;
    if (to === spec(rs)) continue;
    scaleRS(ctx, rs, to);
    budget -= spec(rs) - to;
    total += spec(rs) - to;
  }
  return total > 0;
}

/** reconcileCanaryReplicaSets: true when something was scaled (the reconcile then only writes status). */
function reconcileReplicaSets(ctx: RolloutContext): boolean {
  if (ctx.ro.spec.paused) return false;
  const routed = isTrafficRouted(ctx.ro);
  // removeScaleDownDeadlines: the stable's always, the update's unless its scale-down is
  // delayed on abort (shouldDelayScaleDownOnAbort: a traffic-routed canary's).
  const delaying = routed && isAborted(ctx);
  for (const rs of [delaying ? undefined : ctx.newRS, ctx.stableRS])
    if (rs) setScaleDownDeadline(ctx, rs, undefined);
  if (stableExists(ctx.newRS, ctx.stableRS) && ctx.stableRS) {
    const [, stable] = countsFor(ctx);
    if (scaleRS(ctx, ctx.stableRS, stable)) return true;
  }
  if (ctx.newRS) {
    const [canary] = countsFor(ctx);
    const kept = routed ? abortedCanarySize(ctx, ctx.newRS) : undefined;
    if (scaleRS(ctx, ctx.newRS, kept ?? canary, kept !== undefined)) return true;
  }
  const active = ctx.otherRSs.filter((rs) => spec(rs) > 0);
  return active.length > 0 && scaleDownOthers(ctx, active);
}

/** reconcileCanaryPause: at a pause step, the controller pauses once (CanaryPauseStep) and waits its duration. */
function reconcilePause(ctx: RolloutContext): void {
  const { ro } = ctx;
  if (ro.spec.paused || ro.status?.promoteFull) return;
  const { step } = currentStep(ro);
  if (!step?.pause) return;
  const cond = pauseCondition(ro, 'CanaryPauseStep');
  if (!cond) {
    if (!ro.status?.controllerPause) ctx.pause.add.push('CanaryPauseStep');
    return;
  }
  if (step.pause.duration === undefined) return;
  const left =
    pauseSeconds(step.pause.duration) -
    simSecondsSince(ctx, `pause/CanaryPauseStep/${cond.startTime}`, cond.startTime);
  // At the expiry itself the step is not yet complete (completedStep: strictly after): wake once more.
  if (left >= 0) ctx.requeueAfter(left);
}

/** AtDesiredReplicaCountsForCanary (basic): canary available, stable created, older ones without available pods. */
function atDesiredCounts(ctx: RolloutContext): boolean {
  const [canary, stable] = countsFor(ctx);
  const { newRS, stableRS } = ctx;
  if (!newRS || spec(newRS) !== canary || (newRS.status?.availableReplicas ?? 0) !== canary) return false;
  // Traffic-routed: the stable must be available (AtDesiredReplicaCountsForCanary).
  const stableCount = isTrafficRouted(ctx.ro)
    ? stableRS?.status?.availableReplicas
    : stableRS?.status?.replicas;
  if (!stableRS || spec(stableRS) !== stable || (stableCount ?? 0) !== stable) return false;
  return ctx.otherRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0) === 0;
}

/** completedCurrentCanaryStep: a resumed or expired pause, or a setWeight whose counts are reached. */
function completedStep(ctx: RolloutContext): boolean {
  const { ro } = ctx;
  if (ro.spec.paused) return false;
  const { step } = currentStep(ro);
  if (!step) return false;
  if (step.pause) {
    const cond = pauseCondition(ro, 'CanaryPauseStep');
    if (ro.status?.controllerPause && !cond) return true;
    if (step.pause.duration === undefined || !cond) return false;
    return (
      simSecondsSince(ctx, `pause/CanaryPauseStep/${cond.startTime}`, cond.startTime) >
      pauseSeconds(step.pause.duration)
    );
  }
  if (step.setWeight !== undefined) return atDesiredCounts(ctx);
  if (step.setHeaderRoute || step.setMirrorRoute) return true;
  return false;
}

/** shouldFullPromote for the canary: no stable yet, a fast rollback, or every step done with the canary available. */
function fullPromoteReason(ctx: RolloutContext): string {
  const { ro, newRS } = ctx;
  if (!ctx.stableRS) return 'Initial deploy';
  if (isAborted(ctx)) return '';
  if (!newRS || (newRS.status?.availableReplicas ?? 0) < replicasOf(ro)) return '';
  if (ro.status?.promoteFull) return 'Full promotion requested';
  if (isFastRollback(ctx)) return 'Fast rollback';
  const count = stepsOf(ro).length;
  const index = currentStep(ro).index;
  return count === 0 || index === count ? `Completed all ${count} canary steps` : '';
}

/** syncRolloutStatusCanary. */
function syncStatus(ctx: RolloutContext): void {
  const { ro } = ctx;
  const s: RolloutStatus = baseStatus(ctx);
  s.availableReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  s.HPAReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
  s.selector = selectorString(ro.spec.selector);
  s.currentStepHash = stepHashOf(ctx);
  const stepCount = stepsOf(ro).length;
  let index = currentStep(ro).index;
  if (templateOrStepsChanged(ctx)) {
    resetStatus(ctx, s);
    if (ctx.newRS && stepCount > 0 && ro.status?.stableRS === hashOf(ctx.newRS)) {
      event(ctx, 'Normal', 'SkipSteps', 'Rollback to stable ReplicaSets');
      s.currentStepIndex = stepCount;
    }
    persistStatus(ctx, s);
    return;
  }
  if (ro.status?.promoteFull) {
    ctx.pause.clear = true;
    ctx.pause.removeAbort = true;
    if (stepCount > 0) index = stepCount;
  }
  const reason = fullPromoteReason(ctx);
  if (reason) {
    promoteStable(ctx, s, reason);
    persistStatus(ctx, s);
    return;
  }
  if (isAborted(ctx)) {
    if (stepCount > 0) s.currentStepIndex = s.stableRS === s.currentPodHash ? stepCount : 0;
    persistStatus(ctx, s);
    return;
  }
  if (completedStep(ctx) && index !== undefined) {
    const step = stepsOf(ro)[index];
    index += 1;
    event(
      ctx,
      'Normal',
      'RolloutStepCompleted',
      `Rollout step ${index}/${stepCount} completed (${step ? stepString(step) : 'invalid'})`,
    );
    ctx.pause.remove.push('CanaryPauseStep');
  }
  if (index !== undefined) s.currentStepIndex = index;
  persistStatus(ctx, s);
}

/** metav1.FormatLabelSelector of the Rollout's selector. */
export function selectorString(selector: RolloutContext['ro']['spec']['selector']): string {
  const parts: [string, string][] = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => [
    k,
    `${k}=${v}`,
  ]);
  for (const e of selector?.matchExpressions ?? []) {
    const values = (e.values ?? []).slice().sort().join(',');
    if (e.operator === 'In') parts.push([e.key, `${e.key} in (${values})`]);
    else if (e.operator === 'NotIn') parts.push([e.key, `${e.key} notin (${values})`]);
    else if (e.operator === 'Exists') parts.push([e.key, e.key]);
    else if (e.operator === 'DoesNotExist') parts.push([e.key, `!${e.key}`]);
  }
  // labels.Selector.String(): requirements sorted by key.
  return parts
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, text]) => text)
    .join(',');
}

/** rolloutCanary. */
export function rolloutCanary(ctx: RolloutContext): void {
  if (templateOrStepsChanged(ctx)) {
    if (syncRevision(ctx)) return;
    syncStatus(ctx);
    return;
  }
  if (syncRevision(ctx)) return;
  pruneHistory(ctx);
  if (reconcileReplicaSets(ctx)) {
    syncStatus(ctx);
    return;
  }
  reconcilePause(ctx);
  syncStatus(ctx);
}

/** syncReplicasOnly for the canary: on a replicas change, scaling only, then the counts in status. */
export function canaryScalingEvent(ctx: RolloutContext): void {
  if (syncRevision(ctx)) return;
  reconcileReplicaSets(ctx);
  const s: RolloutStatus = structuredClone(ctx.ro.status ?? {});
  s.availableReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  s.HPAReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
  persistStatus(ctx, s);
}
