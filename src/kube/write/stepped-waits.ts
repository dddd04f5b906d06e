/**
 * The three waits of a stepped walk (stepped-walk.ts), each on a watch of one
 * ReplicaSet with re-reads every `pollMs` (waitUntil, src/kube/watch/wake-on-change.ts):
 * until releasing the chosen pod leaves replicas - 1 Ready, until the ReplicaSet
 * controller is seen to release a pod after the scale, and until the new ReplicaSet's
 * next pod is Ready.
 */
import type { Pod } from '../../diagnosis/k8s.js';
import { isReady, isTerminating } from '../../diagnosis/base/pods.js';
import { listObjects } from '../list.js';
import { waitUntil } from '../watch/wake-on-change.js';
import { readReplicaSet, readyOf } from './replicaset-scaler.js';
import { deploymentMoved, type Walk, type WalkState } from './stepped-state.js';

const newReplicaSetRef = (w: Walk) => ({
  resource: 'replicasets' as const,
  namespace: w.namespace,
  name: w.target.newReplicaSet.name,
});

/**
 * Waits until releasing `pod` leaves at least replicas - 1 Ready pods (old and new
 * ReplicaSet together), re-reading both on every change of the new one.
 */
export async function untilServing(
  w: Walk,
  s: WalkState,
  pod: Pod,
  replicas: number,
  deadline: number,
): Promise<'now' | 'waited' | 'timeout' | 'deployment-changed'> {
  let waited = false;
  const allowed = await waitUntil(
    w.client,
    newReplicaSetRef(w),
    async () => {
      const [oldNow, newNow] = await Promise.all([
        readReplicaSet(w.client, w.namespace, w.target.name),
        readReplicaSet(w.client, w.namespace, w.target.newReplicaSet.name),
      ]);
      const after = readyOf(oldNow) + readyOf(newNow) - (isReady(pod) ? 1 : 0);
      if (after >= replicas - 1) return { value: 'allowed' as const };
      if (waited && (await deploymentMoved(w, s))) return { value: 'deployment-changed' as const };
      waited = true;
      return { resourceVersion: newNow?.metadata.resourceVersion };
    },
    deadline,
    w.pollMs,
  );
  if (!allowed) return 'timeout';
  if (allowed === 'deployment-changed') return allowed;
  return waited ? 'waited' : 'now';
}

/** The pod of `before` that went after the scale (the marked one first, when it did), once seen. */
export function untilReleased(w: Walk, before: Pod[], marked: Pod): Promise<Pod | undefined> {
  return waitUntil(
    w.client,
    { resource: 'replicasets', namespace: w.namespace, name: w.target.name },
    async () => {
      const list = await listObjects<Pod>(w.client, {
        resource: 'pods',
        namespace: w.namespace,
        query: { labelSelector: `pod-template-hash=${w.target.podTemplateHash}` },
      });
      const now = new Map(list.items.map((p) => [p.metadata.uid, p]));
      const went = (p: Pod): boolean => {
        const seen = now.get(p.metadata.uid);
        return !seen || isTerminating(seen);
      };
      const gone = went(marked) ? marked : before.find(went);
      return gone ? { value: gone } : { resourceVersion: list.resourceVersion };
    },
    Date.now() + w.stepTimeoutMs,
    w.pollMs,
  );
}

/**
 * Waits until the new ReplicaSet has more Ready pods than `before`, or the Deployment
 * changes under the wait (a rollback or a new rollout scales the new ReplicaSet down:
 * its next pod never comes, and waiting out the step's timeout would blame readiness).
 */
export function untilNewPodReady(
  w: Walk,
  s: WalkState,
  before: number,
): Promise<'ready' | 'deployment-changed' | undefined> {
  return waitUntil(
    w.client,
    newReplicaSetRef(w),
    async () => {
      const rs = await readReplicaSet(w.client, w.namespace, w.target.newReplicaSet.name);
      if (readyOf(rs) > before) return { value: 'ready' as const };
      if (await deploymentMoved(w, s)) return { value: 'deployment-changed' as const };
      return { resourceVersion: rs?.metadata.resourceVersion };
    },
    Date.now() + w.stepTimeoutMs,
    w.pollMs,
  );
}
