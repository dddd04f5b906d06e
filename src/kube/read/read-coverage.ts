/**
 * How completely a list was read, as the snapshot's coverage records it: a refused
 * or failed list is 'unread' (the access problem says why), a capped one 'partial'.
 */
import type { CoverageGap, ReadState } from '../../diagnosis/snapshot/types.js';
import type { ListResult } from '../list.js';

export type ListedKind = 'replicasets' | 'controllerrevisions' | 'pods' | 'events' | 'persistentvolumeclaims';

const ABOUT: Record<ListedKind, CoverageGap['about']> = {
  replicasets: 'replicaSets',
  controllerrevisions: 'replicaSets',
  pods: 'pods',
  events: 'events',
  persistentvolumeclaims: 'pvcs',
};

/** A namespaced list of ours: its state, and the gap to record when it is not complete. */
export function namespacedListState(
  list: ListResult<unknown> | undefined,
  resource: ListedKind,
  namespace: string,
  gaps: CoverageGap[],
): ReadState {
  const about = ABOUT[resource];
  if (!list) {
    gaps.push({
      about,
      what: `${resource} in ${namespace}`,
      reason: 'forbidden',
      settle: `grant list on ${resource} in namespace ${namespace}`,
    });
    return 'unread';
  }
  if (!list.truncated) return 'complete';
  gaps.push({
    about,
    what: `${resource} in ${namespace} past the first ${list.items.length}`,
    reason: 'capped',
    settle: `kubectl get ${resource} -n ${namespace}`,
  });
  return 'partial';
}

/** A cluster-wide node list: refused, capped, or complete. */
export function nodeListState(list: ListResult<unknown> | undefined, gaps: CoverageGap[]): ReadState {
  if (!list) {
    gaps.push({
      about: 'nodes',
      what: 'nodes',
      reason: 'forbidden',
      settle: 'grant list on nodes (cluster-wide)',
    });
    return 'unread';
  }
  if (!list.truncated) return 'complete';
  gaps.push({
    about: 'nodes',
    what: `nodes past the first ${list.items.length}`,
    reason: 'capped',
    settle: 'narrow the node selection (nodeSelector or node affinity), or diagnose from a dump',
  });
  return 'partial';
}

/** Other workloads' pods on eligible nodes that were not read. */
export function neighboursGap(unread: number, eligible: number, settle: string): CoverageGap {
  return {
    about: 'neighbours',
    what: `pods on ${unread} of ${eligible} eligible nodes`,
    reason: 'capped',
    settle,
  };
}
