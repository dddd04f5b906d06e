/**
 * Blue-green, transcribed from argoproj/argo-rollouts rollout/bluegreen.go and
 * rollout/service.go: the preview Service follows the new ReplicaSet at once; the new
 * ReplicaSet runs `previewReplicaCount` pods until the pause is over
 * (NewRSNewReplicas, the scaleUpPreviewCheckPoint trip-wire), then all replicas; the
 * controller pauses (BlueGreenPause) when auto-promotion is off or delayed
 * (autoPromotionSeconds) and a user resumes it by clearing the pause condition; the
 * active Service switches to the new ReplicaSet once it is saturated and the pause is
 * done, and back to stable on abort; old ReplicaSets keep their pods for
 * `scaleDownDelaySeconds` (30) after the switch (the `scale-down-deadline`
 * annotation), an aborted new one for `abortScaleDownDelaySeconds` (30) once the
 * stable one is back at full size.
 */
import { replicasOf } from './canary-math.js';
import { selectorString } from './canary.js';
import { saturated } from './conditions.js';
import {
  deadlineLeft,
  delayedAbortSize,
  hashOf,
  isAborted,
  pauseCondition,
  pruneHistory,
  revisionOf,
  scaleRS,
  service,
  setScaleDownDeadline,
  simSecondsSince,
  switchSelector,
  syncRevision,
  type RolloutContext,
} from './context.js';
import { baseStatus, isFastRollback, persistStatus, promoteStable, resetStatus } from './status.js';
import { HASH_LABEL, type RolloutStatus, type RS } from './types.js';

const bg = (ctx: RolloutContext) => ctx.ro.spec.strategy?.blueGreen ?? {};
const activeHash = (ctx: RolloutContext): string =>
  service(ctx, bg(ctx).activeService)?.spec?.selector?.[HASH_LABEL] ?? '';
const byHash = (ctx: RolloutContext, hash: string | undefined): RS | undefined =>
  hash ? ctx.allRSs.find((rs) => hashOf(rs) === hash) : undefined;

/** CheckPodSpecChange: the recorded pod hash is not the new ReplicaSet's. */
function podSpecChanged(ctx: RolloutContext): boolean {
  const recorded = ctx.ro.status?.currentPodHash;
  return !!recorded && recorded !== hashOf(ctx.newRS);
}

/** NewRSNewReplicas for blue-green: previewReplicaCount until the pause is over, else all replicas. */
function newReplicas(ctx: RolloutContext): number {
  const { ro, newRS } = ctx;
  const desired = replicasOf(ro);
  const preview = bg(ctx).previewReplicaCount;
  if (preview === undefined || !newRS) return desired;
  const active = byHash(ctx, ro.status?.blueGreen?.activeSelector);
  if (!active || active.metadata.name === newRS.metadata.name || ro.status?.promoteFull) return desired;
  if (hashOf(newRS) !== ro.status?.currentPodHash) return preview;
  const notPaused = !ro.spec.paused && (ro.status?.pauseConditions ?? []).length === 0;
  return notPaused && ro.status?.blueGreen?.scaleUpPreviewCheckPoint ? desired : preview;
}

/** ReadyForPause: the new ReplicaSet has, and runs available, the replicas it should have now. */
function readyForPause(ctx: RolloutContext): boolean {
  const n = newReplicas(ctx);
  return (ctx.newRS?.spec.replicas ?? -1) === n && (ctx.newRS?.status?.availableReplicas ?? -1) === n;
}

/** isBlueGreenFastTracked: a fast rollback, a full promotion, an active Service not yet selecting, or already the new one. */
function fastTracked(ctx: RolloutContext): boolean {
  const selector = service(ctx, bg(ctx).activeService)?.spec?.selector ?? {};
  return (
    isFastRollback(ctx) ||
    ctx.ro.status?.promoteFull === true ||
    selector[HASH_LABEL] === undefined ||
    selector[HASH_LABEL] === hashOf(ctx.newRS)
  );
}

/** CompletedBlueGreenPause. */
function completedPause(ctx: RolloutContext): boolean {
  const { ro } = ctx;
  const cond = pauseCondition(ro, 'BlueGreenPause');
  if (ctx.pause.add.length > 0) return false;
  if (ro.status?.blueGreen?.scaleUpPreviewCheckPoint) return true;
  if (bg(ctx).autoPromotionEnabled !== false) {
    const seconds = bg(ctx).autoPromotionSeconds ?? 0;
    if (seconds === 0) return true;
    return cond
      ? simSecondsSince(ctx, `pause/BlueGreenPause/${cond.startTime}`, cond.startTime) > seconds
      : false;
  }
  return ro.status?.controllerPause === true && !cond;
}

/** The delayed scale-down of an aborted new ReplicaSet (shouldDelayScaleDownOnAbort): returns the size to keep, or undefined. */
function abortedNewSize(ctx: RolloutContext, rs: RS): number | undefined {
  return delayedAbortSize(ctx, rs, bg(ctx).abortScaleDownDelaySeconds ?? 30);
}

/** scaleDownOldReplicaSetsForBlueGreen with scaleDownDelayHelper: an old ReplicaSet keeps its pods until its deadline. */
function scaleDownOthers(ctx: RolloutContext): void {
  const referenced = new Set(
    [
      ctx.ro.status?.stableRS,
      ctx.ro.status?.currentPodHash,
      ctx.ro.status?.blueGreen?.activeSelector,
      ctx.ro.status?.blueGreen?.previewSelector,
      activeHash(ctx),
      service(ctx, bg(ctx).previewService)?.spec?.selector?.[HASH_LABEL],
    ].filter(Boolean),
  );
  for (const rs of [...ctx.otherRSs].sort((a, b) => revisionOf(b) - revisionOf(a))) {
    if (referenced.has(hashOf(rs)) || (rs.spec.replicas ?? 0) === 0) continue;
    const left = deadlineLeft(ctx, rs);
    if (left === undefined) {
      setScaleDownDeadline(ctx, rs, bg(ctx).scaleDownDelaySeconds ?? 30);
      continue;
    }
    if (left > 0) ctx.requeueAfter(left);
    else scaleRS(ctx, rs, 0);
  }
}

/** reconcileBlueGreenReplicaSets. */
function reconcileReplicaSets(ctx: RolloutContext): void {
  const aborting =
    isAborted(ctx) && ctx.stableRS !== undefined && (bg(ctx).abortScaleDownDelaySeconds ?? 30) !== 0;
  if (ctx.newRS && !aborting) setScaleDownDeadline(ctx, ctx.newRS, undefined);
  if (ctx.stableRS && ctx.stableRS !== ctx.newRS) setScaleDownDeadline(ctx, ctx.stableRS, undefined);
  if (ctx.stableRS) scaleRS(ctx, ctx.stableRS, replicasOf(ctx.ro));
  if (ctx.newRS) {
    const keep = abortedNewSize(ctx, ctx.newRS);
    scaleRS(ctx, ctx.newRS, keep ?? newReplicas(ctx), keep !== undefined);
  }
  scaleDownOthers(ctx);
  pruneHistory(ctx);
}

/** reconcileBlueGreenPause. */
function reconcilePause(ctx: RolloutContext): void {
  const { ro } = ctx;
  if (ro.status?.abort || !ctx.newRS || !readyForPause(ctx) || ro.spec.paused) return;
  const remove = (): void => void ctx.pause.remove.push('BlueGreenPause');
  if (
    fastTracked(ctx) ||
    activeHash(ctx) === hashOf(ctx.newRS) ||
    ro.status?.blueGreen?.scaleUpPreviewCheckPoint
  )
    return remove();
  const needsPause = bg(ctx).autoPromotionEnabled === false || (bg(ctx).autoPromotionSeconds ?? 0) > 0;
  if (!needsPause) return remove();
  const cond = pauseCondition(ro, 'BlueGreenPause');
  if (cond) {
    if (completedPause(ctx)) return remove();
    const seconds = bg(ctx).autoPromotionSeconds ?? 0;
    if (seconds > 0)
      ctx.requeueAfter(
        seconds - simSecondsSince(ctx, `pause/BlueGreenPause/${cond.startTime}`, cond.startTime),
      );
  } else if (!ro.status?.controllerPause) ctx.pause.add.push('BlueGreenPause');
}

/** reconcileActiveService: switches once the new ReplicaSet is saturated and the pause is done; back to stable on abort. */
function reconcileActive(ctx: RolloutContext): void {
  const active = service(ctx, bg(ctx).activeService);
  if (!active || ctx.ro.spec.paused || !ctx.newRS) return;
  if (!readyForPause(ctx) || !saturated(ctx.ro, ctx.newRS)) return;
  let hash = active.spec?.selector?.[HASH_LABEL] ?? '';
  if (fastTracked(ctx) || completedPause(ctx)) hash = hashOf(ctx.newRS);
  if (ctx.ro.status?.abort) hash = ctx.ro.status.stableRS ?? '';
  switchSelector(ctx, active, hash);
}

/** syncRolloutStatusBlueGreen. */
function syncStatus(ctx: RolloutContext): void {
  const { ro } = ctx;
  const s: RolloutStatus = baseStatus(ctx);
  if (podSpecChanged(ctx)) resetStatus(ctx, s);
  if (ro.status?.promoteFull) {
    ctx.pause.clear = true;
    ctx.pause.removeAbort = true;
  }
  const preview = service(ctx, bg(ctx).previewService)?.spec?.selector?.[HASH_LABEL];
  const activeSel = activeHash(ctx);
  s.blueGreen = {
    ...(preview ? { previewSelector: preview } : {}),
    ...(activeSel ? { activeSelector: activeSel } : {}),
  };
  const reason = fullPromoteReason(ctx, s);
  if (reason) promoteStable(ctx, s, reason);
  else if (bg(ctx).previewReplicaCount !== undefined) {
    const was = ro.status?.blueGreen?.scaleUpPreviewCheckPoint === true;
    const now =
      was ||
      (completedPause(ctx) && (ctx.newRS?.status?.availableReplicas ?? 0) === bg(ctx).previewReplicaCount);
    if (now) s.blueGreen.scaleUpPreviewCheckPoint = true;
  }
  const activeRS = byHash(ctx, s.blueGreen.activeSelector);
  if (activeRS) {
    s.HPAReplicas = activeRS.status?.replicas ?? 0;
    s.selector = selectorString(activeRS.spec.selector);
    s.availableReplicas = activeRS.status?.availableReplicas ?? 0;
    s.readyReplicas = activeRS.status?.readyReplicas ?? 0;
  } else {
    s.HPAReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
    s.selector = selectorString(ro.spec.selector);
    s.availableReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  }
  persistStatus(ctx, s);
}

/** shouldFullPromote for blue-green. */
function fullPromoteReason(ctx: RolloutContext, s: RolloutStatus): string {
  if (!ctx.stableRS) return 'Initial deploy';
  const active = s.blueGreen?.activeSelector;
  if (!active) return 'Initial deploy';
  if (active !== s.currentPodHash) return '';
  if (ctx.ro.status?.promoteFull) return 'Full promotion requested';
  if (isFastRollback(ctx)) return 'Fast rollback';
  if (isAborted(ctx)) return '';
  return 'Completed blue-green update';
}

/** rolloutBlueGreen. */
export function rolloutBlueGreen(ctx: RolloutContext): void {
  if (syncRevision(ctx)) return;
  const preview = service(ctx, bg(ctx).previewService);
  if (preview && ctx.newRS && !ctx.ro.spec.paused) switchSelector(ctx, preview, hashOf(ctx.newRS));
  if (podSpecChanged(ctx)) {
    syncStatus(ctx);
    return;
  }
  reconcileReplicaSets(ctx);
  reconcilePause(ctx);
  reconcileActive(ctx);
  syncStatus(ctx);
}

/** syncReplicasOnly for blue-green: scaling only, then the active ReplicaSet's counts. */
export function blueGreenScalingEvent(ctx: RolloutContext): void {
  if (syncRevision(ctx)) return;
  reconcileReplicaSets(ctx);
  const s: RolloutStatus = structuredClone(ctx.ro.status ?? {});
  const activeRS = byHash(ctx, s.blueGreen?.activeSelector);
  s.HPAReplicas = activeRS
    ? (activeRS.status?.replicas ?? 0)
    : ctx.allRSs.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
  s.availableReplicas = activeRS
    ? (activeRS.status?.availableReplicas ?? 0)
    : ctx.allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  persistStatus(ctx, s);
}
