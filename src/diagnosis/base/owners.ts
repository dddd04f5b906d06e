/** Owner references, as the garbage collector and the controllers read them. */
import type { ObjectMeta } from '../k8s.js';

/** The controller owner reference, by uid; by kind and name when the objects have no uids (a hand-written dump). */
export function controlledBy(
  child: Pick<ObjectMeta, 'ownerReferences'>,
  kind: string,
  owner: Pick<ObjectMeta, 'uid' | 'name'>,
): boolean {
  return (child.ownerReferences ?? []).some((ref) =>
    owner.uid && ref.uid
      ? ref.uid === owner.uid && ref.controller !== false
      : ref.kind === kind && ref.name === owner.name,
  );
}

/**
 * The workload a pod of another workload belongs to, as kubectl names it
 * ("deployment/web", "statefulset/db", "job/nightly"): its controller owner reference, a
 * ReplicaSet named for its Deployment (`<deployment>-<pod-template-hash>`) read as that
 * Deployment; a pod without a controller by its own name.
 */
export function workloadOfPod(pod: { metadata: ObjectMeta }): string {
  const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller !== false);
  if (!ref?.kind || !ref.name) return `pod/${pod.metadata.name ?? ''}`;
  const hash = pod.metadata.labels?.['pod-template-hash'];
  if (ref.kind === 'ReplicaSet' && hash && ref.name.endsWith(`-${hash}`))
    return `deployment/${ref.name.slice(0, -(hash.length + 1))}`;
  return `${ref.kind.toLowerCase()}/${ref.name}`;
}
