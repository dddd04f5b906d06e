/**
 * Writing a Rollout's status as argo-rollouts does (rollout/sync.go): the base status
 * of a reconcile (calculateBaseStatus), the status reset of a new update
 * (resetRolloutStatus), promotion of the new ReplicaSet to stable (promoteStable,
 * shouldFullPromote's common part), persistRolloutStatus (observedGeneration, pause and
 * abort, conditions, phase, the RolloutPaused / RolloutResumed events), the Paused and
 * Progressing conditions a pause or resume sets before anything else
 * (checkPausedConditions) and the InvalidSpec condition of a spec the controller
 * refuses (createInvalidRolloutCondition).
 */
import { podTemplateHash } from '../rollout-math.js';
import { stepsOf } from './canary-math.js';
import {
  calculateConditions,
  calculatePauseStatus,
  completed,
  getCondition,
  MSG,
  newCondition,
  removeCondition,
  rolloutPhase,
  setCondition,
} from './conditions.js';
import { event, hashOf, isAborted, revisionOf, type RolloutContext } from './context.js';
import type { RolloutStatus, RS } from './types.js';

const sumOf = (rss: readonly (RS | undefined)[], f: (rs: RS) => number | undefined): number =>
  rss.reduce((n, rs) => n + (rs ? (f(rs) ?? 0) : 0), 0);

/** calculateBaseStatus: counts over all ReplicaSets, the current pod hash, conditions carried over. */
export function baseStatus(ctx: RolloutContext): RolloutStatus {
  const { ro } = ctx;
  const prev = ro.status ?? {};
  const s: RolloutStatus = {};
  s.currentPodHash = ctx.newRS
    ? hashOf(ctx.newRS)
    : ro.spec.template
      ? podTemplateHash(ro.spec.template, prev.collisionCount ?? 0)
      : '';
  s.replicas = sumOf(ctx.allRSs, (rs) => rs.status?.replicas);
  s.updatedReplicas = ctx.newRS?.status?.replicas ?? 0;
  s.readyReplicas = sumOf(ctx.allRSs, (rs) => rs.status?.readyReplicas);
  if (prev.collisionCount !== undefined) s.collisionCount = prev.collisionCount;
  if (prev.conditions) s.conditions = prev.conditions.filter((c) => c.type !== 'InvalidSpec');
  if (prev.promoteFull && s.currentPodHash !== prev.stableRS) s.promoteFull = true;
  if (prev.stableRS) s.stableRS = prev.stableRS;
  return s;
}

/** resetRolloutStatus: a new update starts from the first step, without pause or abort. */
export function resetStatus(ctx: RolloutContext, s: RolloutStatus): void {
  ctx.pause.clear = true;
  ctx.pause.removeAbort = true;
  delete s.promoteFull;
  if (s.blueGreen) delete s.blueGreen.scaleUpPreviewCheckPoint;
  if (stepsOf(ctx.ro).length > 0) s.currentStepIndex = 0;
  else delete s.currentStepIndex;
}

/** promoteStable: the current ReplicaSet becomes stable; "Rollout completed update to revision <n> (<hash>): <reason>". */
export function promoteStable(ctx: RolloutContext, s: RolloutStatus, reason: string): void {
  ctx.pause.clear = true;
  ctx.pause.removeAbort = true;
  delete s.promoteFull;
  if (s.blueGreen) delete s.blueGreen.scaleUpPreviewCheckPoint;
  if (ctx.ro.spec.strategy?.canary) {
    const count = stepsOf(ctx.ro).length;
    if (count > 0) s.currentStepIndex = count;
    else delete s.currentStepIndex;
  }
  if (s.stableRS !== s.currentPodHash) {
    s.stableRS = s.currentPodHash ?? '';
    event(
      ctx,
      'Normal',
      'RolloutCompleted',
      `Rollout completed update to revision ${revisionOf(ctx.obj)} (${s.currentPodHash ?? ''}): ${reason}`,
    );
  }
}

/** isRollback without rollback windows: the template is the stable one's, or an older ReplicaSet's. */
export function isFastRollback(ctx: RolloutContext): boolean {
  const { newRS, stableRS } = ctx;
  if (!newRS || !stableRS) return false;
  return ctx.ro.status?.stableRS === hashOf(newRS);
}

/** The status object in the order the API types declare its fields, zero values left out (omitempty). */
function ordered(ctx: RolloutContext, s: RolloutStatus): RolloutStatus {
  const out: Record<string, unknown> = {};
  const keys: (keyof RolloutStatus)[] = [
    'abort',
    'pauseConditions',
    'controllerPause',
    'abortedAt',
    'currentPodHash',
    'currentStepHash',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'currentStepIndex',
    'collisionCount',
    'observedGeneration',
    'conditions',
    'canary',
    'blueGreen',
    'HPAReplicas',
    'selector',
    'stableRS',
    'promoteFull',
    'phase',
    'message',
    'workloadObservedGeneration',
  ];
  for (const k of keys) {
    const v = s[k];
    if (v === undefined || v === false || v === '' || (v === 0 && k !== 'currentStepIndex')) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  out['canary'] ??= {};
  out['blueGreen'] ??= {};
  if (ctx.ro.spec.workloadRef === undefined) delete out['workloadObservedGeneration'];
  return out as RolloutStatus;
}

function writeStatus(ctx: RolloutContext, s: RolloutStatus): void {
  const next = ordered(ctx, s);
  if (JSON.stringify(next) === JSON.stringify(ctx.ro.status ?? {})) return;
  const prev = ctx.ro.status ?? {};
  const copy = structuredClone(
    ctx.store.get('Rollout', ctx.obj.metadata.namespace, ctx.obj.metadata.name) ?? ctx.obj,
  );
  copy['status'] = next;
  ctx.obj = ctx.store.put(copy);
  // sendStateChangeEvents
  const wasPaused = (prev.pauseConditions ?? []).length > 0;
  const isPaused = (next.pauseConditions ?? []).length > 0;
  if (wasPaused !== isPaused) {
    if (isPaused)
      event(ctx, 'Normal', 'RolloutPaused', `${MSG.paused} (${next.pauseConditions?.[0]?.reason ?? ''})`);
    else if (!next.abortedAt) event(ctx, 'Normal', 'RolloutResumed', MSG.resumed);
  }
}

/** persistRolloutStatus: observedGeneration, pause and abort, conditions, phase; written when it changed. */
export function persistStatus(ctx: RolloutContext, s: RolloutStatus): void {
  s.observedGeneration = String(ctx.ro.metadata.generation ?? 1);
  if (ctx.workloadGeneration !== undefined) s.workloadObservedGeneration = ctx.workloadGeneration;
  else delete s.workloadObservedGeneration;
  s.canary ??= {};
  s.blueGreen ??= {};
  calculatePauseStatus(ctx, s);
  calculateConditions(ctx, s);
  const { phase, message } = rolloutPhase(ctx.ro, s);
  s.phase = phase;
  s.message = message;
  writeStatus(ctx, s);
  requeueStuck(ctx, s);
}

/** requeueStuckRollout: a reconcile when the progress deadline of an unfinished update passes. */
function requeueStuck(ctx: RolloutContext, s: RolloutStatus): void {
  const c = getCondition(s, 'Progressing');
  if (
    !c ||
    c.reason === 'ProgressDeadlineExceeded' ||
    completed(s) ||
    (s.pauseConditions ?? []).length > 0 ||
    ctx.ro.spec.paused ||
    s.abort
  )
    return;
  const deadline = ctx.ro.spec.progressDeadlineSeconds ?? 600;
  const since = ctx.clock.get(`progress/${c.lastUpdateTime}`) ?? Date.parse(c.lastUpdateTime);
  const elapsed = ((ctx.now - since) * ctx.timeScale) / 1000;
  ctx.requeueAfter(Math.max(0.05, deadline - elapsed + 1));
}

/** patchCondition: the given conditions set, then observedGeneration and phase, written at once. */
function patchConditions(ctx: RolloutContext, ...conditions: ReturnType<typeof newCondition>[]): void {
  const s: RolloutStatus = structuredClone(ctx.ro.status ?? {});
  for (const c of conditions) setCondition(s, c);
  s.observedGeneration = String(ctx.ro.metadata.generation ?? 1);
  const { phase, message } = rolloutPhase(ctx.ro, s);
  s.phase = phase;
  s.message = message;
  writeStatus(ctx, s);
}

/**
 * checkPausedConditions: once the spec is observed, a pause or resume (spec.paused or
 * pause conditions) sets Progressing Unknown RolloutPaused / RolloutResumed and Paused
 * True / False, and leaving an abort sets Progressing Unknown RolloutRetry. Returns
 * whether it wrote (the reconcile then stops).
 */
export function checkPausedConditions(ctx: RolloutContext): boolean {
  const { ro } = ctx;
  const status = ro.status ?? {};
  if (status.observedGeneration !== String(ro.metadata.generation ?? 1)) return false;
  const progress = getCondition(status, 'Progressing');
  const progressPaused = progress?.reason === 'RolloutPaused';
  const paused = (status.pauseConditions ?? []).length > 0 || ro.spec.paused === true;
  const abortCond = progress?.reason === 'RolloutAborted';
  const updates: ReturnType<typeof newCondition>[] = [];
  if (paused !== progressPaused && !abortCond && !completed(status)) {
    updates.push(
      paused
        ? newCondition('Progressing', 'Unknown', 'RolloutPaused', MSG.paused)
        : newCondition('Progressing', 'Unknown', 'RolloutResumed', MSG.resumed),
    );
  }
  if (!status.abort && abortCond)
    updates.push(newCondition('Progressing', 'Unknown', 'RolloutRetry', MSG.retry));
  const pausedTrue = getCondition(status, 'Paused')?.status === 'True';
  if (paused !== pausedTrue && !abortCond)
    updates.push(newCondition('Paused', paused ? 'True' : 'False', 'RolloutPaused', MSG.paused));
  if (updates.length === 0) return false;
  for (const c of updates)
    if (c.type === 'Progressing') ctx.clock.set(`progress/${c.lastUpdateTime}`, ctx.now);
  patchConditions(ctx, ...updates);
  return true;
}

/** createInvalidRolloutCondition: InvalidSpec True, `The Rollout "<name>" is invalid: <error>`; phase Degraded. */
export function invalidSpec(ctx: RolloutContext, error: string): void {
  const message = `The Rollout "${ctx.ro.metadata.name}" is invalid: ${error}`;
  const current = getCondition(ctx.ro.status ?? {}, 'InvalidSpec');
  if (
    current?.message === message &&
    ctx.ro.status?.observedGeneration === String(ctx.ro.metadata.generation ?? 1)
  )
    return;
  const s: RolloutStatus = structuredClone(ctx.ro.status ?? {});
  if (current) removeCondition(s, 'InvalidSpec');
  setCondition(s, newCondition('InvalidSpec', 'True', 'InvalidSpec', message));
  s.observedGeneration = String(ctx.ro.metadata.generation ?? 1);
  const { phase, message: text } = rolloutPhase(ctx.ro, s);
  s.phase = phase;
  s.message = text;
  s.canary ??= {};
  s.blueGreen ??= {};
  writeStatus(ctx, s);
}

export { isAborted };
