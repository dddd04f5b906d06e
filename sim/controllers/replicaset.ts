/**
 * ReplicaSet controller: keeps the number of active pods at spec.replicas, deleting
 * the least useful pods first on scale-down (unscheduled, then pending, then not
 * ready, then the newest), and reports replicas/ready/available in status.
 */
import { resourceForKind } from '../resources.js';
import type { SimObject } from '../store.js';
import { createObject, deleteObject } from '../writes.js';
import { recordEvent } from './events.js';
import type { Controller, ControllerContext } from './manager.js';
import { asPod, controllerUid, isPodActive, isPodAvailable, isPodReady } from './pods.js';
import type { ReplicaSet } from '../../src/diagnosis/k8s.js';

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
    if (pods.length < want && rs.spec.template) {
      for (let i = pods.length; i < want; i += 1) {
        const template = structuredClone(rs.spec.template);
        const pod = createObject(
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
        );
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
    const status = {
      replicas: live.length,
      fullyLabeledReplicas: live.length,
      readyReplicas: live.filter((p) => isPodReady(asPod(p))).length,
      availableReplicas: live.filter((p) => isPodAvailable(asPod(p), minReady, ctx.timeScale)).length,
      observedGeneration: current.metadata.generation ?? 1,
    };
    if (minReady > 0 && status.readyReplicas > status.availableReplicas) {
      ctx.after(minReady, () => mark(current.metadata.namespace, current.metadata.name), { settles: true });
    }
    if (JSON.stringify(current['status']) !== JSON.stringify(status)) {
      store.put({ ...structuredClone(current), status });
    }
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
