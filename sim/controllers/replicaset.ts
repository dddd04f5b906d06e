/**
 * ReplicaSet controller: keeps the number of active pods at spec.replicas, deleting
 * the least useful pods first on scale-down (unscheduled, then pending, then not
 * ready, then the newest), and reports replicas/ready/available in status.
 *
 * A pod the API server refuses (quota, LimitRange) is reported as upstream does
 * (kubernetes pkg/controller/replicaset): RealPodControl.createPods records the Warning
 * `FailedCreate` event `Error creating: <the API error>` on the ReplicaSet
 * (controller_utils.go), slowStartBatch stops at the first failure, and calculateStatus
 * (replica_set_utils.go) sets the condition `ReplicaFailure=True`, reason FailedCreate,
 * message the error, once; it is removed by the first sync that creates or deletes
 * without error. The ReplicaSet is retried with the workqueue's per-item back-off
 * (5 ms doubling, at most 1000 s), and at once when its pods change.
 */
import { nowRfc3339 } from '../defaults.js';
import { ApiError } from '../errors.js';
import { resourceForKind } from '../resources.js';
import type { SimObject } from '../store.js';
import { createObject, deleteObject } from '../writes.js';
import { recordEvent } from './events.js';
import type { Controller, ControllerContext } from './manager.js';
import { asPod, controllerUid, isPodActive, isPodAvailable, isPodReady } from './pods.js';
import type { ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';

const POD_RT = resourceForKind('Pod');

function deletionRank(o: SimObject): number {
  const pod = asPod(o);
  if (!pod.spec.nodeName) return 0;
  if (pod.status?.phase === 'Pending') return 1;
  if (!isPodReady(pod)) return 2;
  return 3;
}

/** controller.kubernetes.io/pod-deletion-cost (on by default since 1.22): lower goes first, after readiness. */
function deletionCost(o: SimObject): number {
  const value = Number(o.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'] ?? '0');
  return Number.isInteger(value) ? value : 0;
}

/** Creates the ReplicaSet controller. */
export function replicaSetController(ctx: ControllerContext): Controller {
  const dirty = new Set<string>();
  const failures = new Map<string, number>();
  const { store } = ctx;
  const mark = (ns: string | undefined, name: string): void => {
    dirty.add(`${ns ?? ''}/${name}`);
  };
  const markOwner = (o: SimObject): void => {
    const ref = o.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'ReplicaSet');
    if (ref) mark(o.metadata.namespace, ref.name);
  };

  const syncOne = (key: string): void => {
    const rsObj = store.getByKey('ReplicaSet', key);
    if (!rsObj || !POD_RT) return;
    const rs = rsObj as unknown as ReplicaSet;
    const uid = rsObj.metadata.uid ?? '';
    const pods = store
      .ownedBy(uid)
      .filter((o) => o.kind === 'Pod' && controllerUid(o) === uid && isPodActive(asPod(o)));
    const want = rs.spec.replicas ?? 1;
    let manageError: ApiError | undefined;
    if (pods.length < want && rs.spec.template) {
      for (let i = pods.length; i < want; i += 1) {
        const template = structuredClone(rs.spec.template);
        const pod = tryCreate(() =>
          createObject(
            store,
            POD_RT,
            {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: {
                generateName: `${rsObj.metadata.name}-`,
                namespace: rsObj.metadata.namespace,
                labels: template.metadata?.labels ?? {},
                ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
                ownerReferences: [
                  {
                    apiVersion: 'apps/v1',
                    kind: 'ReplicaSet',
                    name: rsObj.metadata.name,
                    uid,
                    controller: true,
                    blockOwnerDeletion: true,
                  },
                ],
              },
              spec: template.spec,
            },
            rsObj.metadata.namespace,
          ),
        );
        if (pod instanceof ApiError) {
          manageError = pod;
          recordEvent(store, {
            involved: rsObj,
            type: 'Warning',
            reason: 'FailedCreate',
            message: `Error creating: ${pod.message}`,
            component: 'replicaset-controller',
          });
          break;
        }
        recordEvent(store, {
          involved: rsObj,
          type: 'Normal',
          reason: 'SuccessfulCreate',
          message: `Created pod: ${pod.metadata.name}`,
          component: 'replicaset-controller',
        });
      }
    } else if (pods.length > want) {
      const victims = [...pods]
        .sort(
          (a, b) =>
            deletionRank(a) - deletionRank(b) ||
            deletionCost(a) - deletionCost(b) ||
            (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''),
        )
        .slice(0, pods.length - want);
      for (const v of victims) {
        deleteObject(store, POD_RT, v.metadata.namespace, v.metadata.name);
        recordEvent(store, {
          involved: rsObj,
          type: 'Normal',
          reason: 'SuccessfulDelete',
          message: `Deleted pod: ${v.metadata.name}`,
          component: 'replicaset-controller',
        });
      }
    }
    const current = store.getByKey('ReplicaSet', key);
    if (!current) return;
    const live = store
      .ownedBy(uid)
      .filter((o) => o.kind === 'Pod' && controllerUid(o) === uid && isPodActive(asPod(o)));
    const minReady = rs.spec.minReadySeconds ?? 0;
    const conditions = failureConditions(current, live.length, want, manageError);
    const status = {
      replicas: live.length,
      fullyLabeledReplicas: live.length,
      readyReplicas: live.filter((p) => isPodReady(asPod(p))).length,
      availableReplicas: live.filter((p) => isPodAvailable(asPod(p), minReady, ctx.timeScale)).length,
      observedGeneration: current.metadata.generation ?? 1,
      ...(conditions.length > 0 ? { conditions } : {}),
    };
    if (manageError) retryLater(key);
    else failures.delete(key);
    if (minReady > 0 && status.readyReplicas > status.availableReplicas) {
      ctx.after(minReady, () => mark(current.metadata.namespace, current.metadata.name), { settles: true });
    }
    if (JSON.stringify(current['status']) !== JSON.stringify(status)) {
      store.put({ ...structuredClone(current), status });
    }
  };

  /** The workqueue's ItemExponentialFailureRateLimiter: 5 ms doubling per failure, at most 1000 s. */
  const retryLater = (key: string): void => {
    const n = failures.get(key) ?? 0;
    failures.set(key, n + 1);
    ctx.after(Math.min(0.005 * 2 ** n, 1000), () => dirty.add(key));
  };

  return {
    name: 'replicaset',
    observe(event) {
      if (event.kind === 'ReplicaSet' && event.type !== 'DELETED')
        mark(event.object.metadata.namespace, event.object.metadata.name);
      if (event.kind === 'Pod') markOwner(event.object);
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

/** An API refusal as a value (the controller reports it); anything else is a bug and throws. */
function tryCreate(create: () => SimObject): SimObject | ApiError {
  try {
    return create();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

interface RsCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** calculateStatus's ReplicaFailure handling (replica_set_utils.go): set once on error, removed on success. */
function failureConditions(
  rs: SimObject,
  have: number,
  want: number,
  error: ApiError | undefined,
): RsCondition[] {
  const conditions = ((rs['status'] as { conditions?: RsCondition[] } | undefined)?.conditions ?? []).map(
    (c) => ({
      ...c,
    }),
  );
  const existing = conditions.find((c) => c.type === 'ReplicaFailure');
  if (error && !existing) {
    const reason = have < want ? 'FailedCreate' : have > want ? 'FailedDelete' : '';
    conditions.push({
      type: 'ReplicaFailure',
      status: 'True',
      lastTransitionTime: nowRfc3339(),
      reason,
      message: error.message,
    });
  }
  if (!error && existing) return conditions.filter((c) => c !== existing);
  return conditions;
}
