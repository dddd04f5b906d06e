/**
 * The nodes a pod's volumes allow (the scheduler's VolumeBinding filter): each claim of the
 * pod bound to a PersistentVolume with node affinity (a local volume, a zonal disk) allows
 * only the nodes those terms select, "volume node affinity conflict" elsewhere. From what
 * was read: a claim or volume not read pins nothing here (no node is ruled out on a guess).
 */
import type { Node, Pod } from '../k8s.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../k8s-storage.js';
import { matchesTerms } from './node-match.js';
import { claimNames } from './pod-constraints.js';

/** One volume that ties the pod to nodes: its name and the nodes its terms select. */
interface VolumePin {
  volume: string;
  allows(node: Node): boolean;
}

/** The claim of `pod` named `claim` as read, and the volume bound to it as read (either may be absent). */
export function claimVolume(
  pod: Pod,
  claim: string,
  pvcs: readonly PersistentVolumeClaim[],
  volumes: readonly PersistentVolume[] | undefined,
): { pvc?: PersistentVolumeClaim; volume?: PersistentVolume } {
  const pvc = pvcs.find(
    (p) =>
      p.metadata.name === claim &&
      (p.metadata.namespace ?? pod.metadata.namespace) === pod.metadata.namespace,
  );
  const volume = pvc?.spec.volumeName
    ? volumes?.find((v) => v.metadata.name === pvc.spec.volumeName)
    : undefined;
  return { ...(pvc ? { pvc } : {}), ...(volume ? { volume } : {}) };
}

/** The pins of `pod`'s bound claims, from the claims and volumes read. */
export function volumePins(
  pod: Pod,
  pvcs: readonly PersistentVolumeClaim[],
  volumes: readonly PersistentVolume[] | undefined,
): VolumePin[] {
  const pins: VolumePin[] = [];
  for (const claim of claimNames(pod.spec)) {
    const { volume } = claimVolume(pod, claim, pvcs, volumes);
    const terms = volume?.spec?.nodeAffinity?.required?.nodeSelectorTerms;
    if (!volume || !terms || terms.length === 0) continue;
    pins.push({ volume: volume.metadata.name ?? '', allows: (node) => matchesTerms(node, terms) });
  }
  return pins;
}
