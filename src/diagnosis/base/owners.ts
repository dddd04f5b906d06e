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
