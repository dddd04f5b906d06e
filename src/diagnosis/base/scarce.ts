/**
 * What makes other workloads' pods matter to a diagnosis: a template that asks for
 * something only a few nodes have or only one pod per node can hold (DESIGN.md §1 D),
 * a pod that is waiting for room, or a new pod that asks for more than a pod of the
 * workload holds (it cannot take an old pod's place: whether it fits depends on the rest).
 */
import type { ResolvedStrategy } from '../resolved-strategy.js';
import type { PersistentVolumeClaim } from '../k8s-storage.js';
import type { Pod, PodSpec } from '../k8s.js';
import { claimNames, hostPorts, requiredAntiAffinity } from './pod-constraints.js';
import { holdsResources, isUnscheduled } from './pods.js';
import { nonZero, podRequests } from './resources.js';

/** Extended resources (vendor-domain names like nvidia.com/gpu) the pod's containers ask for. */
export function extendedResources(spec: PodSpec): string[] {
  const names = new Set<string>();
  for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) {
    for (const key of [
      ...Object.keys(container.resources?.limits ?? {}),
      ...Object.keys(container.resources?.requests ?? {}),
    ]) {
      if (key.includes('/') && !key.startsWith('hugepages-')) names.add(key);
    }
  }
  return [...names].sort();
}

/**
 * The pod asks for an extended resource, DRA devices through a claim per pod, a host
 * port, a node of its own, or one of `rwoClaims`.
 */
export function asksForScarce(spec: PodSpec, rwoClaims: readonly string[]): boolean {
  return (
    extendedResources(spec).length > 0 ||
    (spec.resourceClaims ?? []).some((c) => c.resourceClaimTemplateName !== undefined) ||
    hostPorts(spec).length > 0 ||
    requiredAntiAffinity(spec).length > 0 ||
    rwoClaims.length > 0
  );
}

/** Claims the pod mounts that only one node (or pod) can use at a time. */
function exclusiveClaims(spec: PodSpec, pvcs: readonly PersistentVolumeClaim[]): string[] {
  const mounted = new Set(claimNames(spec));
  return pvcs
    .filter((p) => mounted.has(p.metadata.name ?? ''))
    .filter((p) => {
      const modes = p.spec.accessModes ?? [];
      return modes.includes('ReadWriteOnce') || modes.includes('ReadWriteOncePod');
    })
    .map((p) => p.metadata.name ?? '');
}

/**
 * The update runs new pods beside old ones where the old ones are: an Argo blue-green
 * Rollout keeps its active pods until the preview is complete and promoted, a
 * traffic-routed canary its stable pods until the canary is complete (stableKept), and
 * a DaemonSet with maxSurge starts each node's new pod on that node before its old one
 * goes. Whether the nodes hold both depends on everything else on them.
 */
export function runsBesideOld(strategy: ResolvedStrategy | undefined): boolean {
  // Any Argo Rollout: its canary steps (and a dynamicStableScale promotion) hold canary
  // pods beside stable ones too (forward/canary-steps.ts counts them against the nodes).
  return (
    strategy?.stableKept === true ||
    strategy?.argo !== undefined ||
    (strategy?.per === 'node' && (strategy.maxSurge?.value ?? 0) > 0)
  );
}

/**
 * Other workloads' pods on the eligible nodes are worth reading: a pod of ours waits
 * for room, the pod asks for something scarce they may hold, or the new revision runs
 * beside the old one.
 */
export function neighboursMatter(
  spec: PodSpec,
  pods: readonly Pod[],
  pvcs: readonly PersistentVolumeClaim[],
  strategy?: ResolvedStrategy,
): boolean {
  return (
    runsBesideOld(strategy) ||
    pods.some(isUnscheduled) ||
    asksForScarce(spec, exclusiveClaims(spec, pvcs)) ||
    outgrowsOwnPods(spec, pods)
  );
}

/**
 * A pod of `spec` asks for more of some resource than one of `pods` (bound, holding
 * resources) holds: when that pod goes, the new one does not simply take its place
 * (a template whose requests grew), so the node's other pods decide whether it fits.
 */
export function outgrowsOwnPods(spec: PodSpec, pods: readonly Pod[]): boolean {
  const need = Object.entries(nonZero(podRequests(spec)));
  return pods.some((pod) => {
    if (!pod.spec.nodeName || !holdsResources(pod)) return false;
    const held = podRequests(pod.spec);
    return need.some(([resource, amount]) => (held[resource] ?? 0) < amount);
  });
}
