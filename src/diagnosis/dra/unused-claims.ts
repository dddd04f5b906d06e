/**
 * An allocated ResourceClaim that no pod is reserved for (`status.reservedFor` names no
 * pod) still holds its devices: the scheduler counts every allocated device. Whether
 * that ends by itself is what the resourceclaim controller
 * (pkg/controller/resourceclaim/controller.go, syncClaim) and the garbage collector do
 * with it, read from what the API server holds:
 *
 * - a claim generated for a pod (controller ownerReference to a v1 Pod) whose pod is
 *   gone: the garbage collector deletes it (the controller leaves a pod it cannot find
 *   to the collector); whose pod was replaced (same name, another uid) or is done
 *   (Succeeded/Failed, or deleted before it was scheduled): the controller deletes it;
 * - a claim being deleted that still has the controller's finalizer
 *   (resource.kubernetes.io/delete-protection): the controller clears its allocation and
 *   removes the finalizer, whatever other finalizers keep the object;
 * - otherwise it stays allocated: a claim being deleted without that finalizer keeps
 *   its allocation until the object is gone (other finalizers hold it), and a claim not
 *   generated for a pod is deallocated only when its last user goes (the controller
 *   does that on the transition, never for a claim that is merely unused).
 *
 * A claim generated for a pod that exists and will still run is that pod's: it holds the
 * devices as a user would.
 */
import type { Pod } from '../k8s.js';
import type { ResourceClaim } from '../k8s-dra.js';

const CLAIM_FINALIZER = 'resource.kubernetes.io/delete-protection';

/** How long a deletion the controller should finish in seconds may take before it counts as stuck. */
const STUCK_AFTER_MS = 60_000;

export type UnusedClaimState =
  /** The owning pod exists and may still run: it holds the claim's devices. */
  | { kind: 'owner'; pod: Pod }
  /** The controller or the garbage collector frees the devices by itself. */
  | { kind: 'freeing'; why: string }
  /** Nothing frees the devices by itself: what holds them. */
  | { kind: 'stays'; why: string }
  /** The owning pod was not read, so which of the above applies is not known. */
  | { kind: 'unknown'; why: string; read: string };

export interface PodLookup {
  byUid: ReadonlyMap<string, Pod>;
  /** `<namespace>/<name>` of pods read. */
  byName: ReadonlyMap<string, Pod>;
  /** Every pod of the cluster was read: a pod not among them does not exist. */
  complete: boolean;
  capturedAt: string;
}

function owningPod(claim: ResourceClaim): { name: string; uid: string } | undefined {
  const owner = (claim.metadata.ownerReferences ?? []).find(
    (o) => o.controller === true && o.apiVersion === 'v1' && o.kind === 'Pod',
  );
  return owner ? { name: owner.name, uid: owner.uid } : undefined;
}

/** isPodDone in the controller: none of its containers is running or ever will. */
function isPodDone(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return (
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    (pod.metadata.deletionTimestamp !== undefined && !pod.spec.nodeName)
  );
}

function deletedLongAgo(claim: ResourceClaim, now: string): boolean {
  const since = Date.parse(claim.metadata.deletionTimestamp ?? '');
  const at = Date.parse(now);
  return Number.isFinite(since) && Number.isFinite(at) && at - since > STUCK_AFTER_MS;
}

export function unusedClaimState(claim: ResourceClaim, pods: PodLookup): UnusedClaimState {
  const ns = claim.metadata.namespace ?? '';
  const name = `ResourceClaim ${ns}/${claim.metadata.name ?? ''}`;
  const finalizers = claim.metadata.finalizers ?? [];
  const deleted = claim.metadata.deletionTimestamp;
  if (deleted !== undefined) {
    const others = finalizers.filter((f) => f !== CLAIM_FINALIZER);
    if (finalizers.includes(CLAIM_FINALIZER)) {
      if (!deletedLongAgo(claim, pods.capturedAt)) {
        return {
          kind: 'freeing',
          why: `${name} is being deleted: the resourceclaim controller clears its allocation and removes its finalizer`,
        };
      }
      return {
        kind: 'stays',
        why: `${name} has been deleted since ${deleted} and is still allocated: the resourceclaim controller (kube-controller-manager), which clears the allocation of a deleted claim carrying its ${CLAIM_FINALIZER} finalizer, has not done so; check that it runs`,
      };
    }
    return {
      kind: 'stays',
      why: `${name} has been deleted since ${deleted} but keeps its allocation: it lacks the resourceclaim controller's ${CLAIM_FINALIZER} finalizer, so nothing clears the allocation, and ${others.length > 0 ? `finalizer${others.length === 1 ? '' : 's'} ${others.join(', ')} keep${others.length === 1 ? 's' : ''} the object` : 'the object is not gone yet'}; find what owns ${others.length === 1 ? 'that finalizer' : 'those finalizers'}`,
    };
  }
  const owner = owningPod(claim);
  if (!owner) {
    return {
      kind: 'stays',
      why: `${name} is allocated, no pod is reserved for it, and it was not generated for a pod (no controlling Pod ownerReference): it keeps its devices until it is deleted (kubectl delete resourceclaim -n ${ns} ${claim.metadata.name ?? ''}, once nothing needs it); the resourceclaim controller deallocates a claim only when its last user goes`,
    };
  }
  const pod = pods.byUid.get(owner.uid);
  if (pod && !isPodDone(pod)) return { kind: 'owner', pod };
  if (pod) {
    return {
      kind: 'freeing',
      why: `${name} was generated for pod ${owner.name}, which will not run any more: the resourceclaim controller deletes the claim`,
    };
  }
  const sameName = pods.byName.get(`${ns}/${owner.name}`);
  if (sameName) {
    return {
      kind: 'freeing',
      why: `${name} was generated for an earlier pod ${owner.name} (uid ${owner.uid}), since replaced: the resourceclaim controller deletes the claim`,
    };
  }
  if (pods.complete) {
    return {
      kind: 'freeing',
      why: `${name} was generated for pod ${owner.name}, which no longer exists: the garbage collector deletes the claim, and its deallocation frees the devices`,
    };
  }
  return {
    kind: 'unknown',
    why: `${name} is allocated with no pod reserved for it, and whether its pod ${owner.name} still exists was not read`,
    read: `pod ${owner.name} (kubectl get pod -n ${ns} ${owner.name} -o yaml)`,
  };
}
