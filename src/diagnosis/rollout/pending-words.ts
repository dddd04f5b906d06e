/**
 * The words of a pending pod's verdict: each caveat (what the verdict stands despite)
 * and each read that would settle it, phrased once here so pending-verdict.ts holds
 * only the decision. The IncompleteEvidence, Unschedulable and surge-deadlock findings
 * quote them ("Caveat: …", "Not read: …", "To settle it, read …"), so a read is a noun
 * phrase with the command that makes it.
 */
import type { ReadState, WorkloadSnapshot } from '../snapshot/types.js';

/** "a, b, c and 2 more". */
export function list(nodes: readonly string[]): string {
  return nodes.slice(0, 3).join(', ') + (nodes.length > 3 ? ` and ${nodes.length - 3} more` : '');
}

export const DRA_READS =
  'the set of DRA objects (kubectl get resourceclaims -A -o yaml; kubectl get resourceslices,deviceclasses -o yaml; a live diagnosis needs list on them)';

/** The DRA read that would settle device occupancy, as specific as the coverage allows. */
export function draMissing(snapshot: WorkloadSnapshot): string {
  const dra = snapshot.coverage.dra;
  if (!snapshot.dra || !dra) return DRA_READS;
  if (dra.claims !== 'all')
    return 'the list of ResourceClaims in every namespace (kubectl get resourceclaims -A -o yaml; a live diagnosis needs list on resourceclaims cluster-wide)';
  if (dra.slices !== 'complete') return 'the list of ResourceSlices (kubectl get resourceslices -o yaml)';
  return DRA_READS;
}

export const pendingWords = {
  roomNowCaveat: (nodes: readonly string[]): string =>
    `${list(nodes)} ${nodes.length === 1 ? 'looks' : 'look'} free for this pod, yet the scheduler did not use ${nodes.length === 1 ? 'it' : 'them'}: something this analysis does not model keeps the pod off (required pod affinity, volume node affinity or attach limits, an extender)`,
  occupancyUnreadCaveat: (nodes: readonly string[]): string =>
    `who else holds room on ${list(nodes)} was not read`,
  podsOnNodesRead: (nodes: readonly string[]): string =>
    `pods of other workloads on ${list(nodes)} (kubectl get pods -A --field-selector spec.nodeName=${nodes[0] ?? ''})`,
  deviceOccupancyCaveat: (gaps: readonly string[]): string =>
    `device occupancy is not known: ${gaps.join('; ')}`,
  claimsUnreadCaveat: (claims: readonly string[]): string =>
    `whether PersistentVolumeClaim ${claims.join(', ')} exists, is bound and how it may be attached was not read`,
  claimsRead: (claims: readonly string[], namespace: string): string =>
    `PersistentVolumeClaim ${claims.join(', ')} (kubectl get persistentvolumeclaims -n ${namespace} ${claims.join(' ')} -o yaml)`,
  nodesRead: (nodes: ReadState): string =>
    nodes === 'unread'
      ? 'the nodes (kubectl get nodes -o yaml; a live diagnosis needs list on nodes)'
      : 'the nodes this pod may use (the node list was capped or partly refused)',
  messageUnsettledCaveat: (why: string): string => `the scheduler's message does not settle it: ${why}`,
  releaseUnprovedCaveat: (nodes: readonly string[]): string =>
    `on ${list(nodes)} the new pod asks for more than the old pods there hold, and what other workloads hold there was not read`,
  outranksCaveat: (pods: readonly string[]): string =>
    `the new pod's priority is above that of ${list(pods)}, so the scheduler preempts ${pods.length === 1 ? 'it' : 'them'} rather than wait; whether that leaves enough room turns on what other workloads hold there`,
  selectorErrorCaveat: (request: string, error: string): string =>
    `${request}: a selector fails on a device of the node with a CEL runtime error (${error}); the scheduler stops scheduling the pod with that error whenever it evaluates that device, so fix the selector (for example guard the attribute with has())`,
  selectorErrorEventRead: (pod: string, namespace: string): string =>
    `a FailedScheduling event of pod ${pod} that names the selector's error (kubectl describe pod -n ${namespace} ${pod}; "CEL runtime error" in its message shows the scheduler stopped at the selector)`,
  unsettledDevicesCaveat: (count: number, request: string, why: string | undefined): string =>
    `${count} device(s) may match ${request}, but ${why ?? 'the selector could not be evaluated'}`,
  selectorsRead:
    'an evaluation of the device selectors (kubectl get resourceslices -o yaml, and the DeviceClass)',
  unreadClassesCaveat: (resources: readonly string[]): string =>
    `no node it may use advertises ${list(resources)}, and the DeviceClasses were not all read: a class with extendedResourceName may serve it through DRA there`,
  classesRead:
    'the list of DeviceClasses (kubectl get deviceclasses -o yaml; a live diagnosis needs list on deviceclasses)',
  unknownHoldersCaveat: (pods: readonly string[]): string =>
    `${list(pods)} ${pods.length === 1 ? 'holds' : 'hold'} what the pod needs, and the revisions (ReplicaSets, ControllerRevisions) were not all read: ${pods.length === 1 ? 'it' : 'they'} may be old pods of this workload, which letting go first would free`,
  replicaSetsRead: (namespace: string): string =>
    `the ReplicaSets of ${namespace} (kubectl get replicasets -n ${namespace} -o yaml)`,
} as const;
