/**
 * Deployment controller: finds or creates the new ReplicaSet for the current
 * template (pod-template-hash, revision annotations), then scales new and old
 * ReplicaSets by the RollingUpdate rules (surge/unavailable fenceposts) or
 * Recreate (old pods gone first), prunes history, and writes status.
 *
 * As upstream syncDeployment (pkg/controller/deployment): a paused Deployment, or one
 * whose replicas changed (a scaling event), runs sync() instead of a rollout step:
 * no new ReplicaSet is created (getAllReplicaSetsAndSyncRevision without create), and
 * scale() sizes the existing ones: the only active one (or, with none, the newest)
 * takes the replicas; with a saturated new one the old ones go to 0; otherwise, for
 * RollingUpdate only, proportional scaling to replicas + maxSurge; Recreate scales
 * nothing there.
 */
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import { resourceForKind } from '../resources.js';
import type { SimObject } from '../store.js';
import { createObject, deleteObject } from '../writes.js';
import { computeStatus } from './deployment-status.js';
import { recordEvent } from './events.js';
import type { Controller, ControllerContext } from './manager.js';
import { asPod, controllerUid, isPodActive } from './pods.js';
import { canonicalJson, podTemplateHash, resolveFenceposts, templateWithoutHash } from './rollout-math.js';
import { simNow } from '../clock.js';

const RS_RT = resourceForKind('ReplicaSet');
const REVISION = 'deployment.kubernetes.io/revision';
const DESIRED = 'deployment.kubernetes.io/desired-replicas';
const MAX = 'deployment.kubernetes.io/max-replicas';

const active = (rs: ReplicaSet): boolean => (rs.spec.replicas ?? 0) > 0;

/**
 * isScalingEvent of the real controller: an active ReplicaSet whose desired-replicas
 * annotation differs from the Deployment's replicas (someone changed spec.replicas).
 */
export function isScalingEvent(replicas: number, sets: readonly ReplicaSet[]): boolean {
  return sets.some((rs) => {
    const desired = rs.metadata.annotations?.[DESIRED];
    return active(rs) && desired !== undefined && Number(desired) !== replicas;
  });
}

/**
 * IsSaturated: the new ReplicaSet has all the replicas, says so in its desired-replicas
 * annotation, and all of them are available.
 */
export function isSaturated(replicas: number, rs: ReplicaSet): boolean {
  const desired = Number(rs.metadata.annotations?.[DESIRED] ?? Number.NaN);
  return (
    (rs.spec.replicas ?? 0) === replicas &&
    desired === replicas &&
    (rs.status?.availableReplicas ?? 0) === replicas
  );
}

/**
 * The sizes the real controller's scale() gives during a rolling update when the
 * replicas change: only active ReplicaSets take part (an old one at 0 stays at 0);
 * a single active one (or, with none, the newest) simply takes the new count; else
 * each active one gets its proportion of (replicas + maxSurge) by its max-replicas
 * annotation, rounded, and the leftover goes to the first in order (largest; newer
 * first when adding, older first when removing).
 */
export function proportionalSizes(
  replicas: number,
  maxSurge: number,
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  statusReplicas: number,
): Map<ReplicaSet, number> {
  const sizes = new Map<ReplicaSet, number>();
  const all = [...(newRS ? [newRS] : []), ...oldRSs];
  const activeSets = all.filter(active);
  if (activeSets.length <= 1) {
    const only = activeSets[0] ?? newRS ?? [...oldRSs].sort(byCreation).at(-1);
    if (only) sizes.set(only, replicas);
    return sizes;
  }
  const current = activeSets.reduce((n, rs) => n + (rs.spec.replicas ?? 0), 0);
  const allowed = replicas > 0 ? replicas + maxSurge : 0;
  const toAdd = allowed - current;
  const created = (rs: ReplicaSet): string => rs.metadata.creationTimestamp ?? '';
  const ordered = [...activeSets].sort((a, b) => {
    const size = (b.spec.replicas ?? 0) - (a.spec.replicas ?? 0);
    if (size !== 0) return size;
    return toAdd > 0 ? created(b).localeCompare(created(a)) : created(a).localeCompare(created(b));
  });
  let added = 0;
  for (const rs of ordered) {
    const size = rs.spec.replicas ?? 0;
    let proportion = 0;
    if (toAdd !== 0 && toAdd !== added) {
      const annotated = Number(rs.metadata.annotations?.[MAX] ?? Number.NaN);
      // getReplicaSetFraction: no (or a zero) max-replicas annotation falls back to
      // status.replicas, and with that 0 too the previous size is unknown: fraction 0.
      const base = Number.isFinite(annotated) && annotated > 0 ? annotated : statusReplicas;
      const fraction = replicas === 0 ? -size : base > 0 ? Math.round((size * allowed) / base) - size : 0;
      const left = toAdd - added;
      proportion = toAdd > 0 ? Math.min(fraction, left) : Math.max(fraction, left);
    }
    sizes.set(rs, size + proportion);
    added += proportion;
  }
  const first = ordered[0];
  if (first && added !== toAdd) sizes.set(first, Math.max(0, (sizes.get(first) ?? 0) + toAdd - added));
  return sizes;
}

function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  return (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '');
}

function revisionOf(rs: ReplicaSet): number {
  return Number(rs.metadata.annotations?.[REVISION] ?? '0') || 0;
}

/** Creates the Deployment controller. */
export function deploymentController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const dirty = new Set<string>();
  const lastProgress = new Map<string, number>();
  const deadlineTimers = new Set<string>();

  const writeRS = (rs: ReplicaSet, change: (copy: ReplicaSet) => void): ReplicaSet => {
    const copy = structuredClone(rs);
    change(copy);
    const stored = store.get('ReplicaSet', copy.metadata.namespace, copy.metadata.name ?? '');
    if (!stored) return rs;
    const next = copy as unknown as SimObject;
    if (JSON.stringify(next['spec']) !== JSON.stringify(stored['spec']))
      next.metadata.generation = (stored.metadata.generation ?? 1) + 1;
    return store.put(next) as unknown as ReplicaSet;
  };

  const scale = (
    dObj: SimObject,
    rs: ReplicaSet,
    to: number,
    maxSurge: number,
    annotateUnchanged = false,
  ): ReplicaSet => {
    const from = rs.spec.replicas ?? 0;
    const d = dObj as unknown as Deployment;
    if (from === to) {
      const a = rs.metadata.annotations ?? {};
      const desired = String(d.spec.replicas ?? 1);
      const max = String((d.spec.replicas ?? 1) + maxSurge);
      if (!annotateUnchanged || (a[DESIRED] === desired && a[MAX] === max)) return rs;
      return writeRS(rs, (copy) => {
        copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [DESIRED]: desired, [MAX]: max };
      });
    }
    const updated = writeRS(rs, (copy) => {
      copy.spec.replicas = to;
      copy.metadata.annotations = {
        ...(copy.metadata.annotations ?? {}),
        'deployment.kubernetes.io/desired-replicas': String(d.spec.replicas ?? 1),
        'deployment.kubernetes.io/max-replicas': String((d.spec.replicas ?? 1) + maxSurge),
      };
    });
    recordEvent(store, {
      involved: dObj,
      type: 'Normal',
      reason: 'ScalingReplicaSet',
      message: `Scaled ${to > from ? 'up' : 'down'} replica set ${rs.metadata.name ?? ''} from ${from} to ${to}`,
      component: 'deployment-controller',
    });
    return updated;
  };

  const syncOne = (key: string): void => {
    const dObj = store.getByKey('Deployment', key);
    if (!dObj || !RS_RT) return;
    const d = dObj as unknown as Deployment;
    const uid = dObj.metadata.uid ?? '';
    const replicas = d.spec.replicas ?? 1;
    const rolling = d.spec.strategy?.type !== 'Recreate';
    const [maxSurge, maxUnavailable] = rolling
      ? resolveFenceposts(d.spec.strategy?.rollingUpdate, replicas)
      : [0, 0];
    const owned = store
      .ownedBy(uid)
      .filter((o) => o.kind === 'ReplicaSet' && controllerUid(o) === uid) as unknown as ReplicaSet[];
    const wanted = canonicalJson(templateWithoutHash(d.spec.template));
    let newRS = owned.find((rs) => canonicalJson(templateWithoutHash(rs.spec.template)) === wanted);
    let oldRSs = owned.filter((rs) => rs !== newRS);
    const maxOldRevision = Math.max(0, ...oldRSs.map(revisionOf));
    let createdNewRS = false;
    const paused = d.spec.paused === true;
    /** scale() of sync(): for a paused Deployment and on scaling events. */
    const syncScale = (): void => {
      const all = [...(newRS ? [newRS] : []), ...oldRSs];
      const activeSets = all.filter(active);
      const apply = (sizes: Map<ReplicaSet, number>, annotate: boolean): void => {
        for (const [rs, size] of sizes) {
          const updated = scale(dObj, rs, size, maxSurge, annotate);
          if (rs === newRS) newRS = updated;
          else oldRSs = oldRSs.map((r) => (r === rs ? updated : r));
        }
      };
      if (activeSets.length <= 1) {
        apply(proportionalSizes(replicas, maxSurge, newRS, oldRSs, d.status?.replicas ?? 0), true);
        return;
      }
      if (newRS && isSaturated(replicas, newRS)) {
        apply(new Map(oldRSs.filter(active).map((rs) => [rs, 0])), false);
        return;
      }
      if (rolling) apply(proportionalSizes(replicas, maxSurge, newRS, oldRSs, d.status?.replicas ?? 0), true);
    };
    {
      if (!newRS && !paused) {
        const hash = podTemplateHash(d.spec.template, d.status?.collisionCount ?? 0);
        const template = structuredClone(d.spec.template);
        template.metadata = {
          ...(template.metadata ?? {}),
          labels: { ...(template.metadata?.labels ?? {}), 'pod-template-hash': hash },
        };
        const existingName = store.get(
          'ReplicaSet',
          dObj.metadata.namespace,
          `${dObj.metadata.name}-${hash}`,
        );
        if (existingName) {
          // Hash collision with a foreign ReplicaSet: bump collisionCount and retry next pass.
          store.put({
            ...structuredClone(dObj),
            status: { ...(d.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 },
          });
          return;
        }
        const created = createObject(
          store,
          RS_RT,
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            metadata: {
              name: `${dObj.metadata.name}-${hash}`,
              namespace: dObj.metadata.namespace,
              labels: template.metadata.labels,
              annotations: {
                [REVISION]: String(maxOldRevision + 1),
                'deployment.kubernetes.io/desired-replicas': String(replicas),
                'deployment.kubernetes.io/max-replicas': String(replicas + maxSurge),
              },
              ownerReferences: [
                {
                  apiVersion: 'apps/v1',
                  kind: 'Deployment',
                  name: dObj.metadata.name,
                  uid,
                  controller: true,
                  blockOwnerDeletion: true,
                },
              ],
            },
            spec: {
              replicas: 0,
              minReadySeconds: d.spec.minReadySeconds ?? 0,
              selector: {
                ...d.spec.selector,
                matchLabels: { ...(d.spec.selector.matchLabels ?? {}), 'pod-template-hash': hash },
              },
              template,
            },
          },
          dObj.metadata.namespace,
        );
        newRS = created as unknown as ReplicaSet;
        createdNewRS = true;
      } else if (newRS && revisionOf(newRS) <= maxOldRevision) {
        const current = newRS;
        newRS = writeRS(current, (copy) => {
          copy.metadata.annotations = {
            ...(copy.metadata.annotations ?? {}),
            [REVISION]: String(maxOldRevision + 1),
          };
        });
      }
      const rsReplicas = (): number => [newRS, ...oldRSs].reduce((n, r) => n + (r?.spec.replicas ?? 0), 0);
      const scalingEvent = isScalingEvent(replicas, [...(newRS ? [newRS] : []), ...oldRSs]);
      if (paused || scalingEvent) {
        // sync() instead of a rollout step, as the real controller does.
        syncScale();
      } else if (!rolling) {
        const oldActive = oldRSs.some((rs) => (rs.spec.replicas ?? 0) > 0);
        if (oldActive) {
          oldRSs = oldRSs.map((rs) => scale(dObj, rs, 0, 0));
        } else {
          const oldPods = oldRSs.some((rs) =>
            store.ownedBy(rs.metadata.uid ?? '').some((p) => p.kind === 'Pod' && isPodActive(asPod(p))),
          );
          if (!oldPods && newRS) newRS = scale(dObj, newRS, replicas, 0);
        }
      } else if (newRS) {
        const newReplicas = newRS.spec.replicas ?? 0;
        if (newReplicas > replicas) newRS = scale(dObj, newRS, replicas, maxSurge);
        else if (newReplicas < replicas) {
          const room = replicas + maxSurge - rsReplicas();
          const up = Math.min(Math.max(0, room), replicas - newReplicas);
          if (up > 0) newRS = scale(dObj, newRS, newReplicas + up, maxSurge);
        }
        const oldTotal = oldRSs.reduce((n, r) => n + (r.spec.replicas ?? 0), 0);
        if (oldTotal > 0 && newRS) {
          const minAvailable = replicas - maxUnavailable;
          const newUnavailable = (newRS.spec.replicas ?? 0) - (newRS.status?.availableReplicas ?? 0);
          let budget = rsReplicas() - minAvailable - Math.max(0, newUnavailable);
          const oldest = [...oldRSs].sort(
            (a, b) =>
              (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
              revisionOf(a) - revisionOf(b),
          );
          if (budget > 0) {
            // First remove unhealthy old replicas, they count against nobody's availability.
            for (const rs of oldest) {
              if (budget <= 0) break;
              const unhealthy = (rs.spec.replicas ?? 0) - (rs.status?.availableReplicas ?? 0);
              const down = Math.min(budget, Math.max(0, unhealthy));
              if (down > 0) {
                const updated = scale(dObj, rs, (rs.spec.replicas ?? 0) - down, maxSurge);
                oldRSs = oldRSs.map((r) => (r === rs ? updated : r));
                budget -= down;
              }
            }
            const availableTotal = [newRS, ...oldRSs].reduce(
              (n, r) => n + (r?.status?.availableReplicas ?? 0),
              0,
            );
            let total = availableTotal - minAvailable;
            for (const rs of [...oldRSs].sort(
              (a, b) =>
                (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
                revisionOf(a) - revisionOf(b),
            )) {
              if (total <= 0) break;
              const down = Math.min(rs.spec.replicas ?? 0, total);
              if (down > 0) {
                const updated = scale(dObj, rs, (rs.spec.replicas ?? 0) - down, maxSurge);
                oldRSs = oldRSs.map((r) => (r === rs ? updated : r));
                total -= down;
              }
            }
          }
        }
      }
      const limit = d.spec.revisionHistoryLimit ?? 10;
      const idle = oldRSs
        .filter((rs) => (rs.spec.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0)
        .sort((a, b) => revisionOf(a) - revisionOf(b));
      for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) {
        deleteObject(store, RS_RT, rs.metadata.namespace, rs.metadata.name ?? '');
        oldRSs = oldRSs.filter((r) => r !== rs);
      }
    }
    const current = store.getByKey('Deployment', key);
    if (!current) return;
    const fresh = (rs: ReplicaSet): ReplicaSet =>
      (store.get('ReplicaSet', rs.metadata.namespace, rs.metadata.name ?? '') as unknown as
        ReplicaSet | undefined) ?? rs;
    const now = simNow();
    const { status, progressed, complete } = computeStatus({
      deployment: current as unknown as Deployment,
      newRS: newRS ? fresh(newRS) : undefined,
      newRSName: newRS?.metadata.name,
      oldRSs: oldRSs.map(fresh),
      createdNewRS,
      lastProgressMs: lastProgress.get(uid) ?? now,
      now,
      timeScale: ctx.timeScale,
    });
    if (progressed || !lastProgress.has(uid) || complete) lastProgress.set(uid, now);
    const deadline = d.spec.progressDeadlineSeconds;
    if (!complete && deadline !== undefined && !deadlineTimers.has(uid)) {
      deadlineTimers.add(uid);
      const waitSim = deadline - ((now - (lastProgress.get(uid) ?? now)) * ctx.timeScale) / 1000;
      ctx.after(Math.max(0.05, waitSim + 0.05), () => {
        deadlineTimers.delete(uid);
        dirty.add(key);
      });
    }
    // Like the real controller (SetDeploymentRevision): the Deployment carries its new
    // ReplicaSet's revision, which `kubectl rollout undo` and `history` read.
    const revision = newRS ? fresh(newRS).metadata.annotations?.[REVISION] : undefined;
    const annotations = (current.metadata.annotations ?? {}) as Record<string, string>;
    const revisionStale = revision !== undefined && annotations[REVISION] !== revision;
    if (revisionStale || JSON.stringify(current['status']) !== JSON.stringify(status)) {
      const next = structuredClone(current);
      if (revisionStale) next.metadata.annotations = { ...annotations, [REVISION]: revision };
      store.put({ ...next, status });
    }
  };

  return {
    name: 'deployment',
    observe(event) {
      const o = event.object;
      if (event.kind === 'Deployment') {
        if (event.type === 'DELETED') lastProgress.delete(o.metadata.uid ?? '');
        else dirty.add(`${o.metadata.namespace ?? ''}/${o.metadata.name}`);
      }
      if (event.kind === 'ReplicaSet') {
        const ref = o.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'Deployment');
        if (ref) dirty.add(`${o.metadata.namespace ?? ''}/${ref.name}`);
      }
      if (event.kind === 'Pod' && event.type === 'DELETED') {
        // Recreate waits for old pods to be gone: a pod deletion can unblock it.
        const rsRef = o.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'ReplicaSet');
        const rs = rsRef ? store.get('ReplicaSet', o.metadata.namespace, rsRef.name) : undefined;
        const ref = rs?.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'Deployment');
        if (ref) dirty.add(`${o.metadata.namespace ?? ''}/${ref.name}`);
      }
    },
    sync() {
      if (dirty.size === 0) return false;
      const keys = [...dirty];
      dirty.clear();
      for (const k of keys) syncOne(k);
      return dirty.size > 0;
    },
  };
}
