/**
 * One reconcile of a Rollout, as argo-rollouts' rolloutContext holds it
 * (rollout/context.go, rollout/controller.go newRolloutContext): the Rollout, its
 * ReplicaSets (new: the one whose `rollouts-pod-template-hash` is the template's hash;
 * stable: the one status.stableRS names; others), the pause context (pause.go), and
 * the writes a reconcile makes: ReplicaSet scaling with its desired-replicas annotation
 * and ScalingReplicaSet event (sync.go scaleReplicaSet), the new ReplicaSet
 * (createDesiredReplicaSet), revision annotations (syncReplicaSetRevision,
 * SetNewReplicaSetAnnotations), scale-down deadlines (replicaset.go) and Service
 * selectors (service.go switchServiceSelector).
 */
import { nowRfc3339 } from '../../defaults.js';
import { resourceForKind } from '../../resources.js';
import type { SimObject, Store } from '../../store.js';
import { createObject, deleteObject } from '../../writes.js';
import { recordEvent } from '../events.js';
import { podTemplateHash } from '../rollout-math.js';
import { replicasOf } from './canary-math.js';
import {
  COMPONENT,
  DESIRED_REPLICAS,
  HASH_LABEL,
  MANAGED_BY,
  REVISION,
  REVISION_HISTORY,
  SCALE_DOWN_DEADLINE,
  WORKLOAD_GENERATION,
  type PauseCondition,
  type Rollout,
  type RolloutStatus,
  type RS,
} from './types.js';

const RS_RT = resourceForKind('ReplicaSet');

/** pause.go pauseContext: what this reconcile adds to or removes from the pause and abort state. */
export interface PauseContext {
  add: string[];
  remove: string[];
  clear: boolean;
  addAbort: boolean;
  removeAbort: boolean;
}

export interface RolloutContext {
  store: Store;
  obj: SimObject;
  ro: Rollout;
  allRSs: RS[];
  newRS?: RS;
  stableRS?: RS;
  otherRSs: RS[];
  pause: PauseContext;
  /** Real time now, and how much faster than real time the simulated controllers run. */
  now: number;
  timeScale: number;
  /** Marks the Rollout for another reconcile after `seconds` of simulated time. */
  requeueAfter(seconds: number): void;
  /** Real times (ms) behind second-precision timestamps this controller wrote (progress, pauses). */
  clock: Map<string, number>;
  /** The generation of the workload a `workloadRef` names, once resolved. */
  workloadGeneration?: string;
}

export const hashOf = (rs: RS | undefined): string => rs?.metadata.labels?.[HASH_LABEL] ?? '';
export const revisionOf = (rs: { metadata: { annotations?: Record<string, string> } } | undefined): number =>
  Number(rs?.metadata.annotations?.[REVISION] ?? '0') || 0;

export function isAborted(ctx: RolloutContext): boolean {
  if (ctx.pause.removeAbort) return false;
  return ctx.pause.addAbort || ctx.ro.status?.abort === true;
}

export function pauseCondition(ro: Rollout, reason: string): PauseCondition | undefined {
  return ro.status?.pauseConditions?.find((c) => c.reason === reason);
}

/** Seconds of simulated time since a timestamp this controller wrote (its real time when known). */
export function simSecondsSince(ctx: RolloutContext, key: string, stamp: string | undefined): number {
  const since = ctx.clock.get(key) ?? (stamp ? Date.parse(stamp) : ctx.now);
  return ((ctx.now - since) * ctx.timeScale) / 1000;
}

/** The pod template hash the Rollout's template has (hash.ComputePodTemplateHash; the simulator's own FNV). */
export function templateHash(ro: Rollout): string {
  return ro.spec.template ? podTemplateHash(ro.spec.template, ro.status?.collisionCount ?? 0) : '';
}

/** Its ReplicaSets, sorted by creation, with new, stable and other ones (FindNewReplicaSet, GetStableRS, GetOtherRSs). */
export function classify(
  store: Store,
  obj: SimObject,
  ro: Rollout,
): Pick<RolloutContext, 'allRSs' | 'newRS' | 'stableRS' | 'otherRSs'> {
  const uid = obj.metadata.uid ?? '';
  const allRSs = (store.ownedBy(uid) as unknown as RS[])
    .filter((o) => (o as unknown as SimObject).kind === 'ReplicaSet')
    .filter((rs) => rs.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid))
    .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
  const hash = templateHash(ro);
  const newRS = allRSs.find((rs) => hashOf(rs) === hash);
  const stableHash = ro.status?.stableRS;
  const stableRS = stableHash ? allRSs.find((rs) => hashOf(rs) === stableHash) : undefined;
  const otherRSs = allRSs.filter((rs) => rs !== newRS && rs !== stableRS);
  return { allRSs, ...(newRS ? { newRS } : {}), ...(stableRS ? { stableRS } : {}), otherRSs };
}

function putRS(ctx: RolloutContext, rs: RS, change: (copy: RS) => void): RS {
  const stored = ctx.store.get('ReplicaSet', rs.metadata.namespace, rs.metadata.name ?? '');
  if (!stored) return rs;
  const copy = structuredClone(stored) as unknown as RS;
  change(copy);
  const next = copy as unknown as SimObject;
  if (JSON.stringify(next['spec']) !== JSON.stringify(stored['spec']))
    next.metadata.generation = (stored.metadata.generation ?? 1) + 1;
  const written = ctx.store.put(next) as unknown as RS;
  for (const list of [ctx.allRSs, ctx.otherRSs]) {
    const i = list.findIndex((r) => r.metadata.name === written.metadata.name);
    if (i >= 0) list[i] = written;
  }
  if (ctx.newRS?.metadata.name === written.metadata.name) ctx.newRS = written;
  if (ctx.stableRS?.metadata.name === written.metadata.name) ctx.stableRS = written;
  return written;
}

export function event(
  ctx: RolloutContext,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
): void {
  recordEvent(ctx.store, { involved: ctx.obj, type, reason, message, component: COMPONENT });
}

/**
 * scaleReplicaSetAndRecordEvent: sets the size and the desired-replicas annotation
 * (dropping a scale-down deadline when scaling to 0 unless the abort delay keeps it);
 * "Scaled up|down ReplicaSet <name> (revision <n>) from <a> to <b>". Returns whether
 * the size changed.
 */
export function scaleRS(ctx: RolloutContext, rs: RS, to: number, keepDeadline = false): boolean {
  const replicas = String(replicasOf(ctx.ro));
  const a = rs.metadata.annotations ?? {};
  const from = rs.spec.replicas ?? 0;
  const annotationsStale =
    a[DESIRED_REPLICAS] !== replicas || (replicas === '0' && a[SCALE_DOWN_DEADLINE] !== undefined);
  if (from === to && !annotationsStale) return false;
  putRS(ctx, rs, (copy) => {
    copy.spec.replicas = to;
    const annotations: Record<string, string> = {
      ...(copy.metadata.annotations ?? {}),
      [DESIRED_REPLICAS]: replicas,
    };
    if (to === 0 && !keepDeadline) delete annotations[SCALE_DOWN_DEADLINE];
    copy.metadata.annotations = annotations;
  });
  if (from === to) return false;
  event(
    ctx,
    'Normal',
    'ScalingReplicaSet',
    `Scaled ${to > from ? 'up' : 'down'} ReplicaSet ${rs.metadata.name ?? ''} (revision ${revisionOf(rs)}) from ${from} to ${to}`,
  );
  return true;
}

/** addScaleDownDelay / removeScaleDownDelay: the `scale-down-deadline` annotation. */
export function setScaleDownDeadline(ctx: RolloutContext, rs: RS, seconds: number | undefined): void {
  const has = rs.metadata.annotations?.[SCALE_DOWN_DEADLINE] !== undefined;
  if (seconds === undefined || seconds === 0) {
    if (has) putRS(ctx, rs, (copy) => delete copy.metadata.annotations?.[SCALE_DOWN_DEADLINE]);
    return;
  }
  const deadline = nowRfc3339(new Date(ctx.now + (seconds * 1000) / ctx.timeScale));
  ctx.clock.set(`deadline/${rs.metadata.name ?? ''}`, ctx.now + (seconds * 1000) / ctx.timeScale);
  putRS(ctx, rs, (copy) => {
    copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [SCALE_DOWN_DEADLINE]: deadline };
  });
  ctx.requeueAfter(seconds);
}

/** Simulated seconds left before a ReplicaSet's scale-down deadline (negative once passed), undefined without one. */
export function deadlineLeft(ctx: RolloutContext, rs: RS): number | undefined {
  const stamp = rs.metadata.annotations?.[SCALE_DOWN_DEADLINE];
  if (stamp === undefined) return undefined;
  const at = ctx.clock.get(`deadline/${rs.metadata.name ?? ''}`) ?? Date.parse(stamp);
  return ((at - ctx.now) * ctx.timeScale) / 1000;
}

/**
 * shouldDelayScaleDownOnAbort: an aborted update's ReplicaSet keeps its pods for `delay`
 * seconds once the stable one is fully available; the size to keep, or undefined when it
 * may go now (no abort, no stable, no delay).
 */
export function delayedAbortSize(ctx: RolloutContext, rs: RS, delay: number): number | undefined {
  if (!isAborted(ctx) || !ctx.stableRS || delay === 0) return undefined;
  const left = deadlineLeft(ctx, rs);
  if (left === undefined) {
    if ((ctx.stableRS.status?.availableReplicas ?? 0) >= (ctx.ro.spec.replicas ?? 1))
      setScaleDownDeadline(ctx, rs, delay);
    return rs.spec.replicas ?? 0;
  }
  if (left > 0) {
    ctx.requeueAfter(left);
    return rs.spec.replicas ?? 0;
  }
  return 0;
}

/** Rollout annotations copied to a ReplicaSet (copyRolloutAnnotationsToReplicaSet skips these). */
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  'notified.notifications.argoproj.io',
]);

function copiedAnnotations(ro: Rollout): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ro.metadata.annotations ?? {}).filter(([k]) => !NOT_COPIED.has(k)),
  );
}

/** setRolloutRevision: the Rollout's revision annotation, with a RolloutUpdated event. Returns whether it wrote. */
export function setRolloutRevision(ctx: RolloutContext, revision: string): boolean {
  const annotations = ctx.obj.metadata.annotations ?? {};
  // Resolve (templateref.go) records the workload's generation on the Rollout; this update persists it.
  const extra: Record<string, string> =
    ctx.workloadGeneration !== undefined ? { [WORKLOAD_GENERATION]: ctx.workloadGeneration } : {};
  const stale = Object.entries({ [REVISION]: revision, ...extra }).some(([k, v]) => annotations[k] !== v);
  if (!stale) return false;
  const copy = structuredClone(ctx.obj);
  copy.metadata.annotations = { ...annotations, ...extra, [REVISION]: revision };
  ctx.obj = ctx.store.put(copy);
  // Keep the resolved spec (a workloadRef's template); only the metadata changed.
  ctx.ro = {
    ...ctx.ro,
    metadata: { ...ctx.ro.metadata, annotations: copy.metadata.annotations as Record<string, string> },
  };
  if (annotations[REVISION] !== revision)
    event(ctx, 'Normal', 'RolloutUpdated', `Rollout updated to revision ${revision}`);
  return true;
}

/** createDesiredReplicaSet: revision max+1, 0 replicas, the hash label on labels, selector and template. */
export function createNewRS(ctx: RolloutContext): RS | undefined {
  const { ro, obj } = ctx;
  if (!RS_RT || !ro.spec.template || !ro.spec.selector) return undefined;
  const hash = templateHash(ro);
  const revision = String(Math.max(0, ...ctx.allRSs.map(revisionOf)) + 1);
  const template = structuredClone(ro.spec.template);
  template.metadata = {
    ...(template.metadata ?? {}),
    labels: { ...(template.metadata?.labels ?? {}), [HASH_LABEL]: hash },
  };
  const name = `${obj.metadata.name}-${hash}`;
  const created = createObject(
    ctx.store,
    RS_RT,
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: obj.metadata.namespace,
        labels: template.metadata.labels,
        annotations: {
          ...copiedAnnotations(ro),
          [REVISION]: revision,
          [DESIRED_REPLICAS]: String(replicasOf(ro)),
        },
        ownerReferences: [
          {
            apiVersion: 'argoproj.io/v1alpha1',
            kind: 'Rollout',
            name: obj.metadata.name,
            uid: obj.metadata.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        replicas: 0,
        minReadySeconds: ro.spec.minReadySeconds ?? 0,
        selector: {
          ...ro.spec.selector,
          matchLabels: { ...(ro.spec.selector.matchLabels ?? {}), [HASH_LABEL]: hash },
        },
        template,
      },
    },
    obj.metadata.namespace,
  ) as unknown as RS;
  setRolloutRevision(ctx, revision);
  event(ctx, 'Normal', 'NewReplicaSetCreated', `Created ReplicaSet ${name} (revision ${revision})`);
  return created;
}

/**
 * syncReplicaSetRevision: the new ReplicaSet's revision becomes max(others)+1 when lower
 * (the old one kept in revision-history), its minReadySeconds follows the Rollout's,
 * and the Rollout carries the new ReplicaSet's revision. Returns whether it wrote the
 * Rollout (the reconcile then stops, as upstream's does).
 */
export function syncRevision(ctx: RolloutContext): boolean {
  const rs = ctx.newRS;
  if (!rs) return false;
  const olderMax = Math.max(0, ...ctx.allRSs.filter((r) => r !== rs).map(revisionOf));
  const current = revisionOf(rs);
  const minReady = ctx.ro.spec.minReadySeconds ?? 0;
  if (current < olderMax + 1 || (rs.spec.minReadySeconds ?? 0) !== minReady) {
    putRS(ctx, rs, (copy) => {
      const a = { ...(copy.metadata.annotations ?? {}) };
      if (current < olderMax + 1) {
        if (a[REVISION] !== undefined)
          a[REVISION_HISTORY] = a[REVISION_HISTORY] ? `${a[REVISION_HISTORY]},${a[REVISION]}` : a[REVISION];
        a[REVISION] = String(olderMax + 1);
      }
      copy.metadata.annotations = a;
      copy.spec.minReadySeconds = minReady;
    });
  }
  return setRolloutRevision(ctx, String(revisionOf(ctx.newRS)));
}

/** reconcileRevisionHistoryLimit: deletes the oldest idle other ReplicaSets past revisionHistoryLimit (10). */
export function pruneHistory(ctx: RolloutContext): void {
  const limit = ctx.ro.spec.revisionHistoryLimit ?? 10;
  const alive = ctx.otherRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  for (const rs of alive.slice(0, Math.max(0, alive.length - limit))) {
    const idle = (rs.spec.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0;
    if (idle && RS_RT) deleteObject(ctx.store, RS_RT, rs.metadata.namespace, rs.metadata.name ?? '');
  }
}

interface ServiceShape {
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: { selector?: Record<string, string> };
}

export function service(ctx: RolloutContext, name: string | undefined): ServiceShape | undefined {
  return name
    ? (ctx.store.get('Service', ctx.obj.metadata.namespace, name) as unknown as ServiceShape | undefined)
    : undefined;
}

/** switchServiceSelector: the Service selects `hash`, marked as managed by this Rollout; a SwitchService event. */
export function switchSelector(ctx: RolloutContext, svc: ServiceShape, hash: string): void {
  const old = svc.spec?.selector?.[HASH_LABEL];
  const managed = svc.metadata.annotations?.[MANAGED_BY] !== undefined;
  if (old === hash && managed) return;
  const copy = structuredClone(svc) as unknown as SimObject & ServiceShape;
  copy.spec = { ...(copy.spec ?? {}), selector: { ...(copy.spec?.selector ?? {}), [HASH_LABEL]: hash } };
  if (!managed)
    copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [MANAGED_BY]: ctx.obj.metadata.name };
  ctx.store.put(copy);
  event(
    ctx,
    'Normal',
    'SwitchService',
    `Switched selector for service '${svc.metadata.name}' from '${old ?? ''}' to '${hash}'`,
  );
}

export type { RolloutStatus };
